import { describe, expect, it } from 'vitest';
import { newForm } from '#domain/form-defaults.ts';
import type { FormPage } from '#domain/form-logic.ts';
import type { FieldDefinition, FormRecord } from '#domain/form-model.ts';
import { publicFormOf } from '#domain/public-form.ts';
import { formMarkup } from '#http/pages/form-markup.ts';
import { alwaysAskedFields, pageGroups, pageSectionStart } from '#http/pages/page-sections.ts';

/**
 * A form's pages in HTML (docs/uploads-and-pages.md#steps): the sections the
 * steps' script shows one at a time, and which fields may carry HTML's
 * `required` without script.
 */

const NOW = new Date('2026-11-28T08:00:00Z');

const FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'topic', type: 'radio', label: 'Topic', options: ['Sales', 'Support'], required: true },
  {
    id: 'detail',
    type: 'text',
    label: 'Which?',
    required: true,
    showIf: { all: [{ field: 'topic', op: 'eq', value: 'Sales' }] },
  },
  { id: 'company', type: 'text', label: 'Company', required: true },
  { id: 'message', type: 'textarea', label: 'Message', required: true },
];

const PAGES: FormPage[] = [
  {
    id: 'about',
    title: 'About <you>',
    fields: ['name', 'topic', 'detail'],
    next: [{ if: { all: [{ field: 'topic', op: 'eq', value: 'Support' }] }, goTo: 'write' }],
  },
  { id: 'company', fields: ['company'] },
  { id: 'write', title: 'Your message', fields: ['message'] },
];

const ids = (fields: readonly FieldDefinition[]) => fields.map((field) => field.id);

describe('pageGroups', () => {
  it('puts the fields in their pages’ order, whatever the order of fields', () => {
    const groups = pageGroups([...FIELDS].reverse(), PAGES);
    expect(groups.map((group) => [group.page?.id, ids(group.fields)])).toEqual([
      ['about', ['name', 'topic', 'detail']],
      ['company', ['company']],
      ['write', ['message']],
    ]);
  });

  it('draws a field once, and a field on no page last, on none', () => {
    const pages: FormPage[] = [
      { id: 'one', fields: ['name', 'topic'] },
      { id: 'two', fields: ['topic', 'ghost'] },
    ];
    const groups = pageGroups(FIELDS.slice(0, 3), pages);
    expect(groups.map((group) => [group.page?.id ?? null, ids(group.fields)])).toEqual([
      ['one', ['name', 'topic']],
      ['two', []],
      [null, ['detail']],
    ]);
  });

  it('a form without pages is one group without a page', () => {
    for (const pages of [null, undefined, []]) {
      expect(pageGroups(FIELDS, pages)).toEqual([{ page: null, fields: FIELDS }]);
    }
  });
});

describe('alwaysAskedFields', () => {
  it('leaves out a field with showIf and every field of a page a rule can jump past', () => {
    expect([...alwaysAskedFields(FIELDS, PAGES)]).toEqual(['name', 'topic', 'message']);
  });

  it('a jump to the end can skip every later page', () => {
    const pages: FormPage[] = [
      { ...PAGES[0]!, next: [{ if: { all: [{ field: 'name', op: 'empty' }] }, goTo: 'end' }] },
      ...PAGES.slice(1),
    ];
    expect([...alwaysAskedFields(FIELDS, pages)]).toEqual(['name', 'topic']);
  });

  it('without pages, only showIf leaves a field out', () => {
    expect([...alwaysAskedFields(FIELDS, null)]).toEqual(['name', 'topic', 'company', 'message']);
  });
});

describe('pageSectionStart', () => {
  it('opens a section named by its escaped title, or by nothing without one', () => {
    expect(pageSectionStart(PAGES[0]!, 2)).toBe(
      '<section class="fs-page" id="fs-pg-about" data-fs-page="about" aria-labelledby="fs-pg-about-title"><h2 class="fs-page-title" id="fs-pg-about-title">About &lt;you&gt;</h2>',
    );
    expect(pageSectionStart(PAGES[1]!, 3)).toBe(
      '<section class="fs-page" id="fs-pg-company" data-fs-page="company">',
    );
  });
});

describe('the hosted page of a form with pages', () => {
  const record: FormRecord = {
    ...newForm({ teamId: 't', userId: 'u', name: 'Steps', type: 'custom', now: NOW }),
    fields: FIELDS,
    pages: PAGES,
  };
  const html = formMarkup(publicFormOf(record, 'pro', NOW, 2000), {
    action: '../s/k',
    headingLevel: 1,
  });

  it('draws each page as a section under a heading one level below the title, in order', () => {
    const sections = [...html.matchAll(/<section[^>]*data-fs-page="([^"]+)"/g)].map((m) => m[1]);
    expect(sections).toEqual(['about', 'company', 'write']);
    expect(html).toContain('<h2 class="fs-page-title" id="fs-pg-write-title">Your message</h2>');
    const about = html.slice(html.indexOf('data-fs-page="about"'), html.indexOf('</section>'));
    expect(about).toContain('name="detail"');
    expect(about).not.toContain('name="company"');
  });

  it('marks required in HTML only the fields every walk asks', () => {
    const requiredNames = [...html.matchAll(/name="(\w+)"[^>]* required/g)].map((m) => m[1]);
    expect(new Set(requiredNames)).toEqual(new Set(['name', 'topic', 'message']));
  });
});
