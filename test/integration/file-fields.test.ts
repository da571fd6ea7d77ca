import { describe, expect, it } from 'vitest';
import { admin } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * A file field needs a form that accepts files (docs/forms.md#file-fields): a
 * save that would leave one on a form without files is refused with the
 * reason at its path; the hosted page and the embed never leave one out.
 */

const NAME = { id: 'name', type: 'text', label: 'Name', required: true };
const CV = { id: 'cv', type: 'file', label: 'CV', required: true };

describe('saving a file field', () => {
  it('on a form that does not accept files is 400 at the field’s type, and nothing is saved', async () => {
    const form = await newForm('pro');
    const refused = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { fields: [NAME, CV] },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'invalid_request',
      issues: [
        {
          path: 'fields.1.type',
          message: expect.stringContaining('allowUploads'),
        },
      ],
    });
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body).toMatchObject({ fields: null, allowUploads: false });
  });

  it('with allowUploads in the same request is saved (Pro); on Free that is 402', async () => {
    const pro = await newForm('pro');
    const saved = await api('PATCH', `/v1/forms/${pro.id}`, {
      key: pro.apiKey,
      body: { fields: [NAME, CV], allowUploads: true },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ allowUploads: true });
    const free = await newForm('free');
    const needsPro = await api('PATCH', `/v1/forms/${free.id}`, {
      key: free.apiKey,
      body: { fields: [NAME, CV], allowUploads: true },
    });
    expect(needsPro.status).toBe(402);
    const without = await api('PATCH', `/v1/forms/${free.id}`, {
      key: free.apiKey,
      body: { fields: [NAME, CV] },
    });
    expect(without.status).toBe(400);
  });

  it('turning files off while a file field remains is 400 at allowUploads', async () => {
    const form = await newForm('pro', { fields: [NAME, CV], allowUploads: true });
    const refused = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { allowUploads: false },
    });
    expect(refused.status).toBe(400);
    expect((refused.body.issues as { path: string }[]).map((i) => i.path)).toEqual([
      'allowUploads',
    ]);
  });
});

describe('a file field the form cannot take files for (a team back on Free)', () => {
  it('is drawn on the page and in the embed’s JSON, disabled and saying so; a post without it is stored, marked', async () => {
    const form = await newForm(
      'pro',
      { fields: [NAME, CV], allowUploads: true },
      { name: 'Jobs', type: 'custom' },
    );
    const toFree = await admin('team', 'plan', '--team', form.teamId, '--plan', 'free');
    expect(toFree.code, toFree.stderr).toBe(0);

    const page = await api('GET', `/f/${form.key}`, {
      key: null,
      headers: { accept: 'text/html' },
    });
    expect(page.text).toContain('<label for="fs-f-cv">CV</label>');
    expect(page.text).toContain('This form cannot receive files at the moment.');
    const json = await api('GET', `/f/${form.key}/form.json`, { key: null });
    expect(json.body).toMatchObject({
      multipart: false,
      filesOff: true,
      fields: [
        { id: 'name', required: true },
        { id: 'cv', type: 'file', required: false },
      ],
    });

    const posted = await submit(form.key, { json: { name: 'Ada' }, from: freshVisitor() });
    expect(posted.status, posted.text).toBe(200);
    const stored = await api(
      'GET',
      `/v1/forms/${form.id}/submissions/${posted.body?.submissionId}`,
      {
        key: form.apiKey,
      },
    );
    expect(JSON.parse((stored.body.data as { _invalid: string })._invalid)).toEqual([
      { fieldId: 'cv', reason: 'required' },
    ]);
  });
});
