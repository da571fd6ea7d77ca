import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';
import { postAll } from '#test/support/inbox.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';
import { linkOnceScanned } from '#test/support/uploads.ts';

describe('GET /v1/forms/{id}/submissions/{submissionId}/files/{index}', () => {
  it('links each file for 15 minutes; the link downloads the exact bytes as an attachment', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256)),
    ]);
    const html = Buffer.from('<b>not rendered</b>');
    const post = await multipart((f) => {
      f.append('message', 'two files');
      f.append('cv', new Blob([pdf], { type: 'application/pdf' }), 'Lebenslauf Müller (final).pdf');
      f.append('note', new Blob([html], { type: 'text/plain' }), 'note.txt');
    });
    const posted = await submit(form.key, { ...post, from: freshVisitor() });
    expect(posted.status, posted.text).toBe(200);
    const id = posted.body?.submissionId as string;

    const before = Date.now();
    // A link once the file's malware scan says it is clean (docs/uploads-and-pages.md#malware-scanning).
    const link = await linkOnceScanned(form, id, 0);
    expect(link.status, link.text).toBe(200);
    expect(link.body).toMatchObject({
      name: 'Lebenslauf Müller (final).pdf',
      mime: 'application/pdf',
    });
    const expires = Date.parse(link.body.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 1000);
    expect(new URL(link.body.url).searchParams.get('X-Amz-Expires')).toBe('900');

    // The link needs no API key.
    const download = await fetch(link.body.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    const disposition = download.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment;/);
    expect(disposition).toContain(`filename*=UTF-8''Lebenslauf%20M%C3%BCller%20%28final%29.pdf`);
    expect(disposition).toContain('filename="Lebenslauf M_ller (final).pdf"');

    const second = await linkOnceScanned(form, id, 1);
    expect(second.body.name).toBe('note.txt');
    const note = await fetch(second.body.url);
    expect(Buffer.from(await note.arrayBuffer()).equals(html)).toBe(true);
    expect(note.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('answers 404 for an index out of range, not a number, or a submission without files', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const post = await multipart((f) => {
      f.append('doc', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'a.txt');
    });
    const posted = await submit(form.key, { ...post, from: freshVisitor() });
    const id = posted.body?.submissionId as string;
    const [plain] = await postAll(form, [{ message: 'no files' }]);
    for (const path of [
      `${id}/files/1`,
      `${id}/files/-1`,
      `${id}/files/x`,
      `${id}/files/01e3`,
      `${plain}/files/0`,
    ]) {
      const response = await api('GET', `/v1/forms/${form.id}/submissions/${path}`, {
        key: form.apiKey,
      });
      expect(response.status, path).toBe(404);
      expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
    }
  });
});
