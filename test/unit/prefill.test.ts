import { describe, expect, it } from 'vitest';
import { newForm } from '#domain/form-defaults.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import { prefillValues } from '#domain/prefill.ts';
import { publicFormOf } from '#domain/public-form.ts';
import { formPage } from '#http/pages/form-page.ts';

const NOW = new Date('2026-11-28T12:00:00Z');

const FIELDS: FieldDefinition[] = [
  { id: 'source', type: 'hidden', maxLength: 20 },
  { id: 'customer', type: 'hidden' },
  { id: 'name', type: 'text', prefill: true, maxLength: 10 },
  { id: 'email', type: 'email' },
  { id: 'plan', type: 'select', prefill: true, options: ['Free', 'Pro plan'] },
  { id: 'size', type: 'radio', prefill: true, options: ['Small', 'Large'] },
  { id: 'topics', type: 'checkbox', prefill: true, options: ['Sales', 'Support', 'Yes, please'] },
  { id: 'news', type: 'checkbox', prefill: true },
  { id: 'guests', type: 'number', prefill: true, min: 0, max: 20 },
  { id: 'score', type: 'rating', prefill: true },
  { id: 'note', type: 'textarea', prefill: true },
  { id: 'cv', type: 'file' },
];

describe('prefillValues', () => {
  it('fills hidden fields and the fields whose owner allowed it, never the others', () => {
    expect(
      prefillValues(FIELDS, {
        source: 'newsletter',
        customer: ['c-42'],
        name: 'Ada',
        email: 'ada@example.com',
        cv: 'x',
        other: 'y',
      }),
    ).toEqual({ source: 'newsletter', customer: 'c-42', name: 'Ada' });
  });

  it('ignores a value the field would refuse: over its length, out of range, not an option', () => {
    expect(
      prefillValues(FIELDS, {
        source: 'x'.repeat(21),
        name: 'Ada Lovelace-Byron',
        plan: 'Gold',
        size: ['Small', 'Large'],
        guests: '21',
        score: '6',
        topics: 'Sales,Marketing',
      }),
    ).toEqual({});
    expect(prefillValues(FIELDS, { customer: 'x'.repeat(10_001) })).toEqual({});
    expect(prefillValues(FIELDS, { customer: 'x'.repeat(10_000) }).customer).toHaveLength(10_000);
  });

  it('matches a choice as answers are compared and fills the option’s own words', () => {
    expect(
      prefillValues(FIELDS, {
        plan: '  pro PLAN ',
        size: 'large',
        topics: ['support', 'Yes, please'],
        news: 'on',
        guests: '3',
        score: '4',
      }),
    ).toEqual({
      plan: 'Pro plan',
      size: 'Large',
      topics: 'Support,Yes, please',
      news: 'on',
      guests: '3',
      score: '4',
    });
    expect(prefillValues(FIELDS, { topics: 'sales,support' }).topics).toBe('Sales,Support');
  });

  it('leaves a blank value, and a name like __proto__, alone', () => {
    const query = JSON.parse('{"__proto__":"x","source":"  "}') as Record<string, string>;
    expect(prefillValues([...FIELDS, { id: '__proto__', type: 'hidden' }], query)).toEqual({
      ['__proto__' as string]: 'x',
    });
    expect(prefillValues(FIELDS, { source: '' })).toEqual({});
  });
});

describe('the hosted page, prefilled', () => {
  const view = publicFormOf(
    {
      ...newForm({ teamId: 't', userId: 'u', name: 'Quote', type: 'custom', now: NOW }),
      fields: FIELDS.filter((field) => field.type !== 'file'),
    },
    'pro',
    NOW,
    2000,
  );
  const page = (query: Record<string, string | string[]>) =>
    formPage(view, { base: '../', nonce: 'n', prefill: prefillValues(view.fields, query) });

  it('draws a hidden field as a hidden input, empty when the URL has no value', () => {
    expect(page({})).toContain(
      '<input type="hidden" id="fs-f-source" name="source" value="" data-fs-field="source">',
    );
    expect(page({ source: 'ads' })).toContain(
      '<input type="hidden" id="fs-f-source" name="source" value="ads" data-fs-field="source">',
    );
  });

  it('escapes what the URL sent wherever it lands', () => {
    const evil = '"><script>alert(1)</script>';
    const html = page({ customer: evil, name: '"><b>x', note: `</textarea>${evil}` });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>x');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('&lt;/textarea&gt;&quot;&gt;&lt;script&gt;');
  });

  it('selects, checks and fills the visible fields it may', () => {
    const html = page({
      name: 'Ada',
      plan: 'pro plan',
      size: 'Large',
      topics: ['Sales', 'Yes, please'],
      news: 'yes',
      score: '4',
      note: 'Hello',
    });
    expect(html).toContain('name="name"');
    expect(html).toMatch(/<input id="fs-f-name" name="name"[^>]* value="Ada"/);
    expect(html).toContain('<option selected>Pro plan</option>');
    expect(html).toMatch(/value="Large" checked/);
    expect(html).toMatch(/value="Sales" checked/);
    expect(html).toMatch(/value="Yes, please" checked/);
    expect(html).not.toMatch(/value="Support" checked/);
    expect(html).toMatch(/id="fs-f-news" name="news"[^>]*value="yes" checked/);
    expect(html).toMatch(/value="4" checked/);
    expect(html).toContain('>Hello</textarea>');
  });
});
