import { createHash, createHmac, randomBytes } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { forceFormAttributes, newForm, storedItems } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import {
  freshVisitor,
  inOneMinute,
  multipart,
  type SubmitResponse,
  submit,
} from '#test/support/submit.ts';
import { s3, uploadsOf } from '#test/support/uploads.ts';

const MB = 1024 * 1024;

interface Grant {
  uploadId: string;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

interface DeclaredFile {
  name: string;
  size: number;
  type?: string;
  field?: string;
}

/** Real HTTP to the local gateway: `POST /s/{key}/uploads`. */
function requestUploads(
  key: string,
  files: DeclaredFile[],
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<SubmitResponse> {
  return submit(key, {
    path: `/s/${key}/uploads`,
    json: { files },
    from: options.from ?? freshVisitor(),
    headers: options.headers,
  });
}

async function grantsFor(key: string, files: DeclaredFile[]): Promise<Grant[]> {
  const response = await requestUploads(key, files);
  expect(response.status, response.text).toBe(200);
  return response.body?.uploads as Grant[];
}

/** What a browser does: a multipart POST of the policy's fields, then the file, to S3. */
async function postToStorage(
  grant: Grant,
  content: Buffer,
  override: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...grant.fields, ...override })) {
    form.append(name, value);
  }
  form.append('file', new Blob([new Uint8Array(content)]), 'ignored-name.bin');
  return fetch(grant.url, { method: 'POST', body: form });
}

interface PolicyDocument {
  expiration: string;
  conditions: Array<Record<string, string> | [string, ...unknown[]]>;
}

function policyOf(grant: Grant): PolicyDocument {
  return JSON.parse(Buffer.from(grant.fields.Policy!, 'base64').toString('utf8'));
}

/** A UUIDv7 upload id issued `ageMs` ago (the id carries its time of issue). */
function uploadIdIssuedAgo(ageMs: number): string {
  const hex = (Date.now() - ageMs).toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Whether the grant's signature is SigV4's over its policy with the local
 * stack's secret (lib/local/environment.ts): what S3 checks on arrival.
 */
function signedRight(grant: Grant): boolean {
  const [, date, region, service] = (grant.fields['X-Amz-Credential'] ?? '').split('/');
  const hmac = (key: Buffer | string, text: string) =>
    createHmac('sha256', key).update(text).digest();
  let key = hmac('AWS4local', date!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  return hmac(key, grant.fields.Policy ?? '').toString('hex') === grant.fields['X-Amz-Signature'];
}

async function pendingExists(formId: string, uploadId: string): Promise<boolean> {
  try {
    await s3().send(
      new HeadObjectCommand({
        Bucket: stack().uploadsBucket,
        Key: `pending/${formId}/${uploadId}`,
      }),
    );
    return true;
  } catch {
    return false;
  }
}

const pdfBytes = (size: number) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size - 9, 7)]);

describe('direct uploads: POST /s/{key}/uploads, then S3, then /s/{key} with _uploads', () => {
  it('a 30 MB file to a Pro form with a 50 MB limit ends in meta.files and downloads intact', async () => {
    const form = await newForm('pro', { allowUploads: true, uploadLimitMb: 50 });
    const content = pdfBytes(30 * MB);
    const before = Date.now();
    const response = await requestUploads(form.key, [
      { name: 'C:\\scans\\big report.pdf', size: content.length, type: 'application/pdf' },
    ]);
    const after = Date.now();
    expect(response.status, response.text).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const [grant] = (response.body?.uploads ?? []) as Grant[];
    expect(grant!.uploadId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(Date.parse(grant!.expiresAt) - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);

    // The signed policy itself: what real S3 enforces (the emulator does not).
    const policy = policyOf(grant!);
    // Signed while the request ran (however long a loaded machine takes).
    expect(Date.parse(policy.expiration) - after).toBeLessThanOrEqual(15 * 60_000 + 1000);
    expect(Date.parse(policy.expiration) - before).toBeGreaterThanOrEqual(15 * 60_000 - 2000);
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 50 * MB]);
    expect(policy.conditions).toContainEqual({ 'Content-Type': 'application/pdf' });
    expect(policy.conditions).toContainEqual({ key: `pending/${form.id}/${grant!.uploadId}` });
    expect(policy.conditions).toContainEqual({ bucket: stack().uploadsBucket });
    expect(policy.conditions).toContainEqual({
      'x-amz-meta-name': encodeURIComponent('big report.pdf'),
    });
    expect(grant!.fields.key).toBe(`pending/${form.id}/${grant!.uploadId}`);
    expect(grant!.fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);

    const stored = await postToStorage(grant!, content);
    expect(stored.status).toBe(204);

    const posted = await submit(form.key, {
      json: { name: 'Ada', _uploads: [grant!.uploadId] },
      from: freshVisitor(),
    });
    expect(posted.status, posted.text).toBe(200);
    const id = posted.body?.submissionId as string;
    const { submissions } = await localStore();
    const submission = await submissions.getSubmission(form.id, id);
    expect(submission?.data).toEqual({ name: 'Ada' });
    expect(submission?.meta.files).toEqual([
      { name: 'big report.pdf', mime: 'application/pdf', size: content.length },
    ]);
    expect(await uploadsOf(form.id)).toEqual([`forms/${form.id}/${id}/0`]);
    expect(await pendingExists(form.id, grant!.uploadId), 'the pending object is moved').toBe(
      false,
    );

    const link = await api<{ url: string; name: string }>(
      'GET',
      `/v1/forms/${form.id}/submissions/${id}/files/0`,
      { key: form.apiKey },
    );
    expect(link.status, link.text).toBe(200);
    const download = await fetch(link.body.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
    const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    expect(digest(Buffer.from(await download.arrayBuffer()))).toBe(digest(content));
  });

  it('takes urlencoded posts with comma-separated ids, after multipart-style field checks', async () => {
    const form = await newForm('pro', {
      allowUploads: true,
      fields: [{ id: 'cv', type: 'file', label: 'CV', required: true }],
    });
    const grants = await grantsFor(form.key, [
      { name: 'a.txt', size: 5, type: 'text/plain', field: 'cv' },
      { name: 'b.png', size: 3, type: 'image/png' },
    ]);
    expect((await postToStorage(grants[0]!, Buffer.from('hello'))).status).toBe(204);
    expect((await postToStorage(grants[1]!, Buffer.from('png'))).status).toBe(204);
    const posted = await submit(form.key, {
      form: { note: 'two', _uploads: `${grants[0]!.uploadId}, ${grants[1]!.uploadId}` },
      from: freshVisitor(),
    });
    expect(posted.status, posted.text).toBe(200);
    const { submissions } = await localStore();
    const stored = await submissions.getSubmission(form.id, posted.body?.submissionId as string);
    expect(stored?.data).toEqual({ note: 'two' });
    expect(stored?.meta.files).toEqual([
      { field: 'cv', name: 'a.txt', mime: 'text/plain', size: 5 },
      { name: 'b.png', mime: 'image/png', size: 3 },
    ]);
  });
});

describe('direct uploads: refusals at submit', () => {
  it('an object over the limit is 413 by its real size, even though the emulator stored it', async () => {
    const form = await newForm('pro', { allowUploads: true, uploadLimitMb: 1 });
    const [grant] = await grantsFor(form.key, [{ name: 'small.bin', size: 1000 }]);
    // Real S3 refuses this POST (content-length-range); the emulator does not check policies.
    const stored = await postToStorage(grant!, Buffer.alloc(MB + 1, 1));
    expect(
      stored.status,
      'fauxqs now enforces content-length-range: update docs/uploads-and-pages.md#direct-uploads',
    ).toBe(204);
    const refused = await submit(form.key, {
      json: { a: 'b', _uploads: grant!.uploadId },
      from: freshVisitor(),
    });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ ok: false, error: 'file_too_large' });
    expect(await storedItems(form.id)).toHaveLength(0);
    expect(await uploadsOf(form.id)).toEqual([]);
  });

  it('a program disguised as a PDF is 415 by its first bytes; a type the policy fixed is checked too', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const [exe, html] = await grantsFor(form.key, [
      { name: 'invoice.pdf', size: 8, type: 'application/pdf' },
      { name: 'page.txt', size: 6, type: 'text/plain' },
    ]);
    await postToStorage(exe!, Buffer.from('MZ\x90\x00rest'));
    const byContent = await submit(form.key, {
      json: { a: 'b', _uploads: exe!.uploadId },
      from: freshVisitor(),
    });
    expect(byContent.status).toBe(415);
    expect(byContent.body).toMatchObject({ ok: false, error: 'file_type_not_allowed' });
    // Real S3 refuses a Content-Type other than the signed one; the emulator stores it.
    await postToStorage(html!, Buffer.from('<b>x</b>'), { 'Content-Type': 'text/html' });
    const byType = await submit(form.key, {
      json: { a: 'b', _uploads: html!.uploadId },
      from: freshVisitor(),
    });
    expect(byType.status).toBe(415);
    expect(await storedItems(form.id)).toHaveLength(0);
  });

  it("another form's id is 400 upload_not_found, and stays usable by its own form", async () => {
    const owner = await newForm('pro', { allowUploads: true });
    const other = await newForm('pro', { allowUploads: true });
    const [grant] = await grantsFor(owner.key, [{ name: 'a.txt', size: 5, type: 'text/plain' }]);
    await postToStorage(grant!, Buffer.from('hello'));
    const refused = await submit(other.key, {
      json: { a: 'b', _uploads: grant!.uploadId },
      from: freshVisitor(),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ ok: false, error: 'upload_not_found' });
    expect(await storedItems(other.id)).toHaveLength(0);
    const own = await submit(owner.key, {
      json: { a: 'b', _uploads: grant!.uploadId },
      from: freshVisitor(),
    });
    expect(own.status, own.text).toBe(200);
  });

  it('an id used twice is refused the second time, and the first submission keeps its file', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const [grant] = await grantsFor(form.key, [{ name: 'a.txt', size: 5, type: 'text/plain' }]);
    await postToStorage(grant!, Buffer.from('hello'));
    const first = await submit(form.key, {
      json: { a: 'first', _uploads: grant!.uploadId },
      from: freshVisitor(),
    });
    expect(first.status, first.text).toBe(200);
    const second = await submit(form.key, {
      json: { a: 'second', _uploads: grant!.uploadId },
      from: freshVisitor(),
    });
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ ok: false, error: 'upload_already_used' });
    expect(second.body?.message).toMatch(/already used/);
    expect(await storedItems(form.id)).toHaveLength(1);
    expect(await uploadsOf(form.id)).toEqual([
      `forms/${form.id}/${first.body?.submissionId as string}/0`,
    ]);
  });

  it('an id whose object is gone, arrived after its policy, or is older than a day is refused', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const [never] = await grantsFor(form.key, [{ name: 'a.txt', size: 5, type: 'text/plain' }]);
    const gone = await submit(form.key, {
      json: { a: 'b', _uploads: never!.uploadId },
      from: freshVisitor(),
    });
    expect(gone.status).toBe(400);
    expect(gone.body).toMatchObject({ ok: false, error: 'upload_not_found' });

    // The emulator accepts a POST after the policy's expiration; the object's time gives it away.
    // Issued 2 h ago: its 15-minute policy plus the hour an upload may take have passed.
    const late = uploadIdIssuedAgo(2 * 60 * 60_000);
    const old = uploadIdIssuedAgo(25 * 60 * 60_000);
    for (const id of [late, old]) {
      await s3().send(
        new PutObjectCommand({
          Bucket: stack().uploadsBucket,
          Key: `pending/${form.id}/${id}`,
          Body: Buffer.from('hello'),
          ContentType: 'text/plain',
          Metadata: { name: 'a.txt', field: '' },
        }),
      );
    }
    const afterPolicy = await submit(form.key, {
      json: { a: 'b', _uploads: late },
      from: freshVisitor(),
    });
    expect(afterPolicy.status).toBe(400);
    expect(afterPolicy.body).toMatchObject({ ok: false, error: 'upload_expired' });
    expect(afterPolicy.body?.message).toMatch(/after its upload link had expired/);
    const expired = await submit(form.key, {
      json: { a: 'b', _uploads: old },
      from: freshVisitor(),
    });
    expect(expired.body).toMatchObject({ ok: false, error: 'upload_expired' });
    expect(expired.body?.message).toMatch(/within a day/);
    expect(await storedItems(form.id)).toHaveLength(0);
  });

  it('uploads off and a Free team: the route and the submit answer as a multipart post with files does', async () => {
    const off = await newForm('pro');
    const free = await newForm('free');
    // A Free team whose form still says allowUploads (e.g. after a downgrade).
    await forceFormAttributes(free.id, { allowUploads: true });
    const withFile = await multipart((f) => {
      f.append('doc', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'a.txt');
    });
    for (const form of [off, free]) {
      const viaMultipart = await submit(form.key, { ...withFile, from: freshVisitor() });
      expect(viaMultipart.status).toBe(400);
      expect(viaMultipart.body).toMatchObject({ ok: false, error: 'uploads_disabled' });
      const route = await requestUploads(form.key, [{ name: 'a.txt', size: 5 }]);
      expect(route.status).toBe(400);
      expect(route.body).toMatchObject({ ok: false, error: 'uploads_disabled' });
      const named = await submit(form.key, {
        json: { a: 'b', _uploads: uploadIdIssuedAgo(0) },
        from: freshVisitor(),
      });
      expect(named.status).toBe(400);
      expect(named.body).toMatchObject({ ok: false, error: 'uploads_disabled' });
      expect(await storedItems(form.id)).toHaveLength(0);
    }
  });
});

describe('POST /s/{key}/uploads refuses like the submit endpoint', () => {
  it('404 for an unknown key, 403 for a refused origin, 423 when closed', async () => {
    const unknown = await requestUploads('no-such-form-key', [{ name: 'a.txt', size: 5 }]);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: 'not_found' });
    expect(unknown.headers['access-control-allow-origin']).toBe('*');

    const guarded = await newForm('pro', {
      allowUploads: true,
      allowedOrigins: ['https://ok.example'],
    });
    const refused = await requestUploads(guarded.key, [{ name: 'a.txt', size: 5 }], {
      headers: { origin: 'https://nope.example' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ok: false, error: 'origin_not_allowed' });
    const allowed = await requestUploads(guarded.key, [{ name: 'a.txt', size: 5 }], {
      headers: { origin: 'https://ok.example' },
    });
    expect(allowed.status).toBe(200);

    const paused = await newForm('pro', { allowUploads: true, status: 'paused' });
    const closed = await requestUploads(paused.key, [{ name: 'a.txt', size: 5 }]);
    expect(closed.status).toBe(423);
    expect(closed.body).toMatchObject({ ok: false, error: 'form_closed' });
  });

  it('429 with Retry-After past the per-IP rate (the submit windows), others still pass', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const { statuses, limited, posting } = await inOneMinute(async () => {
      const visitor = freshVisitor();
      const each: number[] = [];
      for (let i = 0; i < 30; i++) {
        each.push(
          (await requestUploads(form.key, [{ name: 'a.txt', size: 5 }], { from: visitor })).status,
        );
      }
      return {
        statuses: each,
        limited: await requestUploads(form.key, [{ name: 'a.txt', size: 5 }], { from: visitor }),
        posting: await submit(form.key, { json: { a: 'b' }, from: visitor }),
      };
    });
    expect(statuses).toEqual(Array(30).fill(200));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(posting.status, 'an upload request counts in the submit windows').toBe(429);
    expect((await requestUploads(form.key, [{ name: 'a.txt', size: 5 }])).status).toBe(200);
  });

  it('a blocked IP gets the same shape of answer as anyone, and its post is dropped', async () => {
    const visitor = freshVisitor();
    const form = await newForm('pro', { allowUploads: true, blockedIps: [visitor] });
    const blocked = await requestUploads(form.key, [{ name: 'a.txt', size: 5 }], {
      from: visitor,
    });
    const open = await requestUploads(form.key, [{ name: 'a.txt', size: 5 }]);
    expect(blocked.status).toBe(200);
    expect(Object.keys(blocked.body ?? {})).toEqual(Object.keys(open.body ?? {}));
    const [grant] = (blocked.body?.uploads ?? []) as Grant[];
    expect(Object.keys(grant!).sort()).toEqual(['expiresAt', 'fields', 'uploadId', 'url']);
    const [openGrant] = (open.body?.uploads ?? []) as Grant[];
    expect(Object.keys(grant!.fields).sort()).toEqual(Object.keys(openGrant!.fields).sort());
    // S3 refuses the blocked visitor's policy (the emulator checks no signature).
    expect(signedRight(openGrant!)).toBe(true);
    expect(signedRight(grant!)).toBe(false);
    await postToStorage(grant!, Buffer.from('hello'));
    const post = await submit(form.key, {
      json: { a: 'b', _uploads: grant!.uploadId },
      from: visitor,
    });
    expect(post.body).toEqual({ ok: true });
    expect(await storedItems(form.id)).toHaveLength(0);
  });

  it('refuses what a multipart post would: too many files, too large, refused types, bad bodies', async () => {
    const form = await newForm('pro', { allowUploads: true, uploadLimitMb: 2 });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, size: 1 }));
    const many = await requestUploads(form.key, eleven);
    expect(many.status).toBe(413);
    expect(many.body).toMatchObject({ error: 'too_many_files' });
    const large = await requestUploads(form.key, [{ name: 'a.bin', size: 2 * MB + 1 }]);
    expect(large.status).toBe(413);
    expect(large.body).toMatchObject({ error: 'file_too_large' });
    for (const file of [
      { name: 'setup.exe', size: 10 },
      { name: 'page.txt', size: 10, type: 'text/html' },
    ]) {
      const refused = await requestUploads(form.key, [file]);
      expect(refused.status).toBe(415);
      expect(refused.body).toMatchObject({ error: 'file_type_not_allowed' });
    }
    const empty = await requestUploads(form.key, []);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'invalid_request' });
    const text = await submit(form.key, {
      path: `/s/${form.key}/uploads`,
      body: 'files=a',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(text.status).toBe(415);
  });

  it('OPTIONS is a CORS preflight that allows POST', async () => {
    const response = await submit('any-key', {
      method: 'OPTIONS',
      path: '/s/any-key/uploads',
      headers: {
        origin: 'https://site.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
  });
});

describe('an upload id is used once', () => {
  it('eight posts naming one upload at once: exactly one is stored with the file, seven answer 400 upload_already_used, no copy', async () => {
    await localStore();
    const form = await newForm('pro', { allowUploads: true });
    const [grant] = await grantsFor(form.key, [
      { name: 'one.pdf', size: 2048, type: 'application/pdf' },
    ]);
    expect((await postToStorage(grant!, pdfBytes(2048))).status).toBe(204);
    const posts = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        submit(form.key, {
          json: { note: `racer ${n}`, _uploads: grant!.uploadId },
          from: freshVisitor(),
          allowServerError: true,
        }),
      ),
    );
    const statuses = posts.map((post) => post.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    for (const post of posts.filter((p) => p.status === 400)) {
      expect(post.body).toMatchObject({ ok: false, error: 'upload_already_used' });
    }
    const stored = (await storedItems(form.id)).filter((item) => item.entity === 'submission');
    expect(stored).toHaveLength(1);
    expect((stored[0]!.meta as { files: unknown[] }).files).toHaveLength(1);
    const winner = posts.find((p) => p.status === 200)!.body?.submissionId as string;
    expect(await uploadsOf(form.id)).toEqual([`forms/${form.id}/${winner}/0`]);
    expect(await pendingExists(form.id, grant!.uploadId)).toBe(false);

    // Sent again later, it is refused the same way.
    const late = await submit(form.key, {
      json: { note: 'late', _uploads: grant!.uploadId },
      from: freshVisitor(),
    });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: 'upload_already_used' });
  });

  it('a post refused after the check (closed form) leaves the upload for a retry', async () => {
    await localStore();
    const form = await newForm('pro', { allowUploads: true });
    const [grant] = await grantsFor(form.key, [
      { name: 'again.pdf', size: 1024, type: 'application/pdf' },
    ]);
    await postToStorage(grant!, pdfBytes(1024));
    await api('PATCH', `/v1/forms/${form.id}`, { key: form.apiKey, body: { status: 'paused' } });
    const refused = await submit(form.key, {
      json: { _uploads: grant!.uploadId },
      from: freshVisitor(),
    });
    expect(refused.status).toBe(423);
    await api('PATCH', `/v1/forms/${form.id}`, { key: form.apiKey, body: { status: 'active' } });
    const retried = await submit(form.key, {
      json: { _uploads: grant!.uploadId },
      from: freshVisitor(),
    });
    expect(retried.status, retried.text).toBe(200);
  });
});
