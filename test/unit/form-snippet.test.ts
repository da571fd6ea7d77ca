import { describe, expect, it } from 'vitest';
import { htmlSnippet } from '#app/snippets.ts';
import { newForm } from '#domain/form-defaults.ts';
import type { FormPage } from '#domain/form-logic.ts';
import type { FieldDefinition, FormRecord } from '#domain/form-model.ts';
import { publicFormOf } from '#domain/public-form.ts';
import { fieldMarkup } from '#http/pages/field-markup.ts';
import { formMarkup } from '#http/pages/form-markup.ts';

/**
 * The Share screen's HTML form (docs/uploads-and-pages.md#the-html-form): each field
 * as the hosted page draws it, plain HTML that posts to the endpoint.
 */

const ENDPOINT = 'https://api.example/prod/s/abc123';
const NOW = new Date('2026-11-26T08:00:00Z');

const FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text', label: 'Name', required: true, minLength: 2, maxLength: 80 },
  { id: 'code', type: 'text', label: 'Code', pattern: '[A-Z]{3}-\\d{2}' },
  { id: 'email', type: 'email', label: 'Email', required: true },
  { id: 'about', type: 'textarea', label: 'About', maxLength: 500 },
  { id: 'guests', type: 'number', label: 'Guests', min: 0, max: 20 },
  { id: 'day', type: 'date', label: 'Day' },
  { id: 'size', type: 'select', label: 'Size', options: ['S', 'M', 'L'], required: true },
  { id: 'when', type: 'radio', label: 'When', options: ['Day', 'Night'], required: true },
  { id: 'terms', type: 'checkbox', label: 'I agree', required: true },
  { id: 'topics', type: 'checkbox', label: 'Topics', options: ['News', 'Offers'] },
  { id: 'stars', type: 'rating', label: 'Stars', max: 5, required: true },
  { id: 'likely', type: 'rating', label: 'How likely', min: 0, max: 10 },
  { id: 'phone', type: 'tel', label: 'Phone' },
  { id: 'site', type: 'url', label: 'Site' },
  { id: 'cv', type: 'file', label: 'CV' },
];

/** The Share screen's fields are the API's answer (a looser type than the domain's). */
type SharedFields = Parameters<typeof htmlSnippet>[1];
const snippet = htmlSnippet(ENDPOINT, FIELDS as SharedFields);
/** The markup of one field in the snippet: its line. */
const partOf = (id: string) => {
  const line = snippet.split('\n').find((l) => l.includes(` name="${id}"`));
  expect(line, `field ${id} is in the snippet`).toBeDefined();
  return line!;
};

describe('the HTML form of the Share screen', () => {
  it('posts to the endpoint, multipart with a file field, and needs no script', () => {
    expect(snippet).toMatch(
      /^<form class="fs-form" action="https:\/\/api\.example\/prod\/s\/abc123" method="post" enctype="multipart\/form-data">/,
    );
    expect(htmlSnippet(ENDPOINT, FIELDS.slice(0, 3) as SharedFields)).not.toContain('enctype');
    // The only script is the optional _t stamp, after the form.
    const beforeEnd = snippet.slice(0, snippet.indexOf('</form>'));
    expect(beforeEnd).not.toContain('<script');
    expect(snippet).toContain('<input type="hidden" name="_t" value="">');
    expect(snippet).toMatch(/<div class="fs-hp" hidden>.*name="_gotcha"/);
  });

  it('a form that cannot take files draws its file field disabled, saying so, and posts urlencoded', () => {
    const required = [
      ...FIELDS.slice(0, 1),
      { id: 'cv', type: 'file', label: 'CV', required: true },
    ];
    const off = htmlSnippet(ENDPOINT, required as SharedFields, {}, true);
    expect(off).not.toContain('enctype');
    expect(off).toContain('This form cannot receive files at the moment.');
    expect(off).toMatch(/<input id="fs-f-cv" name="cv" type="file" disabled/);
    expect(off).not.toMatch(/name="cv"[^>]*required/);
  });

  it('counts its views without script: `_views` in the form, and the view image after it', () => {
    expect(snippet).toContain('<input type="hidden" name="_views" value="counted">');
    expect(snippet).toContain(
      '<img src="https://api.example/prod/f/abc123/views" alt="" width="1" height="1" hidden>',
    );
    expect(snippet.indexOf('<img')).toBeGreaterThan(snippet.indexOf('</form>'));
  });

  it('text fields carry required, minlength, maxlength and pattern', () => {
    expect(partOf('name')).toMatch(
      /<input [^>]*name="name" required [^>]*minlength="2" maxlength="80"/,
    );
    expect(partOf('code')).toContain('pattern="[A-Z]{3}-\\d{2}"');
    expect(partOf('email')).toMatch(/name="email" required[^>]*type="email"/);
    expect(partOf('about')).toMatch(/<textarea [^>]*maxlength="500"/);
    expect(partOf('guests')).toMatch(/type="number"[^>]*min="0" max="20"/);
    expect(partOf('day')).toContain('type="date"');
    expect(partOf('phone')).toContain('type="tel"');
    expect(partOf('site')).toContain('type="url"');
    expect(partOf('cv')).toContain('type="file"');
  });

  it('a select starts with a blank "Choose…" option, so skipping it answers nothing', () => {
    expect(partOf('size')).toMatch(
      /<select [^>]*name="size" required[^>]*><option value="">Choose…<\/option><option>S<\/option><option>M<\/option><option>L<\/option><\/select>/,
    );
    expect(partOf('size')).not.toContain('selected');
  });

  it('a radio field is radios, required, none chosen', () => {
    const radios = partOf('when').match(/<input type="radio"[^>]*>/g) ?? [];
    expect(radios).toHaveLength(2);
    for (const radio of radios) {
      expect(radio).toContain('name="when"');
      expect(radio).toContain(' required');
      expect(radio).not.toContain('checked');
    }
    expect(partOf('when')).toContain('<legend>When');
    expect(partOf('when')).not.toContain('<select');
  });

  it('a rating is radios from min to max: 1 to 5 stars, 0 to 10 for a score', () => {
    const values = (id: string) =>
      [...partOf(id).matchAll(/type="radio"[^>]*name="[^"]+" value="(\d+)"/g)].map((m) => m[1]);
    expect(values('stars')).toEqual(['1', '2', '3', '4', '5']);
    expect(values('likely')).toEqual(Array.from({ length: 11 }, (_, i) => String(i)));
    expect(partOf('stars')).toContain('required');
    expect(partOf('stars')).not.toMatch(/type="text"/);
  });

  it('a tick box and a group of ticks', () => {
    expect(partOf('terms')).toMatch(/type="checkbox" value="yes"/);
    expect(partOf('terms')).toContain(' required');
    expect(partOf('topics').match(/type="checkbox"/g)).toHaveLength(2);
  });

  it('has no error lines (no script fills them) and names no missing element', () => {
    expect(snippet).not.toContain('fs-error');
    for (const [, named] of snippet.matchAll(/aria-describedby="([^"]+)"/g)) {
      for (const id of named!.split(' ')) expect(snippet).toContain(`id="${id}"`);
    }
  });

  it('draws each field exactly as the hosted page does, less the error line', () => {
    const record: FormRecord = {
      ...newForm({ teamId: 't', userId: 'u', name: 'F', type: 'custom', now: NOW }),
      fields: FIELDS.filter((field) => field.type !== 'file'),
    };
    const page = formMarkup(publicFormOf(record, 'free', NOW, 2000), {
      action: ENDPOINT,
      headingLevel: 1,
    });
    for (const field of record.fields!) {
      const drawn = fieldMarkup(field)
        .replace(/<p class="fs-error" id="[^"]+"><\/p>/, '')
        .replace(/ aria-describedby="fs-e-[^"]+"/g, '')
        .replace(/ fs-e-[\w-]+"/g, '"');
      expect(page).toContain(fieldMarkup(field));
      expect(snippet).toContain(drawn);
      expect(drawn).toBe(fieldMarkup(field, { errors: false }));
    }
  });

  it('escapes labels and options, and takes the form’s button label; a form without fields gets name, email and message', () => {
    const html = htmlSnippet(
      ENDPOINT,
      [{ id: 'x', type: 'select', label: '<b>"x"</b>', options: ['<i>'] }],
      { submitLabel: 'Send <now>' },
    );
    expect(html).toContain('&lt;b&gt;&quot;x&quot;&lt;/b&gt;');
    expect(html).toContain('<option>&lt;i&gt;</option>');
    expect(html).toContain('<button type="submit" class="fs-submit">Send &lt;now&gt;</button>');
    const any = htmlSnippet(ENDPOINT, null);
    expect(any.match(/ name="(name|email|message)"/g)).toEqual([
      ' name="name"',
      ' name="email"',
      ' name="message"',
    ]);
    expect(any).toContain('<button type="submit" class="fs-submit">Send</button>');
  });
});

describe('the HTML form of a form with logic', () => {
  const fields: FieldDefinition[] = [
    { id: 'name', type: 'text', label: 'Name', required: true },
    { id: 'kind', type: 'radio', label: 'Kind', options: ['Personal', 'Business'], required: true },
    {
      id: 'vat',
      type: 'text',
      label: 'VAT number',
      requiredIf: { all: [{ field: 'kind', op: 'eq', value: 'Business' }] },
    },
    { id: 'company', type: 'text', label: 'Company', required: true },
    { id: 'source', type: 'hidden' },
  ];
  const pages: FormPage[] = [
    {
      id: 'about',
      title: 'About you',
      fields: ['name', 'kind', 'vat'],
      next: [{ if: { all: [{ field: 'kind', op: 'eq', value: 'Personal' }] }, goTo: 'end' }],
    },
    { id: 'business', title: 'Your company', fields: ['company', 'source'] },
  ];
  const html = htmlSnippet(ENDPOINT, fields as SharedFields, {}, false, pages);
  const script =
    '<script src="https://api.example/prod/embed.js" data-logic="abc123" async></script>';

  it('draws its pages as sections and ends with the logic script, after the form', () => {
    expect(html).toContain(
      '<section class="fs-page" id="fs-pg-about" data-fs-page="about" aria-labelledby="fs-pg-about-title"><h2 class="fs-page-title" id="fs-pg-about-title">About you</h2>',
    );
    expect(html).toContain('data-fs-page="business"');
    expect(html.endsWith(script)).toBe(true);
    expect(html.indexOf(script)).toBeGreaterThan(html.indexOf('</form>'));
  });

  it('marks required only what every walk asks; a requiredIf field’s star is hidden until it holds', () => {
    expect(html).toMatch(/<input id="fs-f-name" name="name" required/);
    expect(html).toMatch(/<input id="fs-f-company" name="company" type="text"/);
    expect(html).toContain(
      '<label for="fs-f-vat">VAT number<span class="fs-req" aria-hidden="true" hidden> *</span></label>',
    );
    expect(html).toContain(
      '<input type="hidden" id="fs-f-source" name="source" value="" data-fs-field="source">',
    );
  });

  it('a form without logic gets no script; one with only a hidden field gets it, for prefill', () => {
    expect(snippet).not.toContain('data-logic');
    const hiddenOnly = htmlSnippet(ENDPOINT, [fields[0]!, fields[4]!] as SharedFields);
    expect(hiddenOnly.endsWith(script)).toBe(true);
    expect(hiddenOnly).not.toContain('<section');
  });
});
