import { GetObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { stack } from '#test/support/api.ts';
import { newForm, storedItems } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';
import { asSent, linkOnceScanned, s3, uploadsOf } from '#test/support/uploads.ts';

describe('POST /s/{key} with files', () => {
  it('stores each file in S3 under the form and submission, and names them in meta.files with the answer name each came under', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300_000, 7)]);
    const post = await multipart((f) => {
      f.append('name', 'Ada');
      f.append('cv', new Blob([pdf], { type: 'application/pdf' }), 'C:\\Users\\ada\\cv.pdf');
      f.append('photo', new Blob([Buffer.from('png-bytes')], { type: 'image/png' }), 'me.png');
    }, 'empty');
    const response = await submit(form.key, { ...post, from: freshVisitor() });
    expect(response.status, response.text).toBe(200);
    const id = response.body?.submissionId as string;
    const { submissions } = await localStore();
    const stored = await submissions.getSubmission(form.id, id);
    expect(stored?.data).toEqual({ name: 'Ada' });
    expect(asSent(stored?.meta.files)).toEqual([
      { field: 'cv', name: 'cv.pdf', mime: 'application/pdf', size: pdf.length },
      { field: 'photo', name: 'me.png', mime: 'image/png', size: 9 },
    ]);
    // Readable once the scanner emulator tagged it clean (the bucket policy's rule).
    await linkOnceScanned(form, id, 0);
    const object = await s3().send(
      new GetObjectCommand({ Bucket: stack().uploadsBucket, Key: `forms/${form.id}/${id}/0` }),
    );
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(pdf)).toBe(true);
    expect(object.ContentType).toBe('application/pdf');
    expect(await uploadsOf(form.id)).toEqual([
      `forms/${form.id}/${id}/0`,
      `forms/${form.id}/${id}/1`,
    ]);
  });

  it('stores file names without hidden characters (bidi marks, zero-width, BOM)', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const post = await multipart((f) => {
      f.append('note', 'see file');
      f.append(
        'doc',
        new Blob([Buffer.from('plain text')], { type: 'text/plain' }),
        're\u061Cport\u200B\u202Efdp.txt\uFEFF',
      );
    });
    const response = await submit(form.key, { ...post, from: freshVisitor() });
    expect(response.status, response.text).toBe(200);
    const { submissions } = await localStore();
    const stored = await submissions.getSubmission(form.id, response.body?.submissionId as string);
    expect(asSent(stored?.meta.files)).toEqual([
      { field: 'doc', name: 'reportfdp.txt', mime: 'text/plain', size: 10 },
    ]);
  });

  it('a file alone is a submission; a form without uploads refuses files with 400', async () => {
    const post = await multipart((f) => {
      f.append('doc', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'a.txt');
    });
    const withUploads = await newForm('pro', { allowUploads: true });
    expect((await submit(withUploads.key, post)).status).toBe(200);
    const without = await newForm('pro');
    const refused = await submit(without.key, post);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ ok: false, error: 'uploads_disabled' });
    expect(await storedItems(without.id)).toHaveLength(0);
    expect(await uploadsOf(without.id)).toEqual([]);
  });

  it('a file over uploadLimitMb is 413, an executable is 415, and nothing is left in S3', async () => {
    const form = await newForm('pro', { allowUploads: true, uploadLimitMb: 1 });
    const big = await multipart((f) => {
      f.append('a', 'b');
      f.append('doc', new Blob([Buffer.alloc(1024 * 1024 + 1, 1)]), 'big.bin');
    });
    const tooBig = await submit(form.key, { ...big, from: freshVisitor() });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ ok: false, error: 'file_too_large' });
    const justFits = await multipart((f) => {
      f.append('doc', new Blob([Buffer.alloc(1024 * 1024, 1)]), 'fits.bin');
    });
    expect((await submit(form.key, { ...justFits, from: freshVisitor() })).status).toBe(200);
    const exe = await multipart((f) => {
      f.append('a', 'b');
      f.append('doc', new Blob([Buffer.from('MZ\x90\x00rest')]), 'invoice.pdf');
    });
    const refused = await submit(form.key, { ...exe, from: freshVisitor() });
    expect(refused.status).toBe(415);
    expect(refused.body).toMatchObject({ ok: false, error: 'file_type_not_allowed' });
    expect(await storedItems(form.id)).toHaveLength(1);
    expect(await uploadsOf(form.id)).toHaveLength(1);
  });

  it('a file on a closed form is refused and its bytes are never stored', async () => {
    const form = await newForm('pro', { allowUploads: true, status: 'paused' });
    const post = await multipart((f) => {
      f.append('doc', new Blob([Buffer.from('data')]), 'a.txt');
    });
    expect((await submit(form.key, post)).status).toBe(423);
    expect(await uploadsOf(form.id)).toEqual([]);
  });

  it('posts above the platform limit of a direct upload get 413 naming the limit', async () => {
    const form = await newForm('pro', { allowUploads: true, uploadLimitMb: 25 });
    const post = await multipart((f) => {
      f.append('doc', new Blob([Buffer.alloc(4_500_000, 1)]), 'large.bin');
    });
    const response = await submit(form.key, { ...post, from: freshVisitor() });
    expect(response.status).toBe(413);
    expect(response.body?.message).toMatch(/4\.4 MB/);
  });
});
