import { describe, expect, it, vi } from 'vitest';
import { newForm } from '#test/support/forms.ts';
import { type Rng, random } from '#test/support/seeded-random.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, type SubmitOptions, submit } from '#test/support/submit.ts';

/**
 * Requests of a run: 1,200 in `npm test`, `FUZZ_REQUESTS=<n>` for more (`npm run fuzz` sends
 * 2,400, as `npm test` did before). A run's requests are the first ones of a longer run with its
 * seed: at seed 20261122 the first 1,200 reach every status the 2,400 reach (200; 400; 402 once
 * the Free quota is spent, from the 990th; 415; 422; 423 once maxSubmissions is reached, from the
 * 443rd), and every one of the 12 kinds of request.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1200);
const PARALLEL = 16;
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
if (!Number.isInteger(REQUESTS) || REQUESTS < 60) {
  throw new Error(`FUZZ_REQUESTS must be a whole number of at least 60, got ${REQUESTS}`);
}
// 200 ms a request at the most (about 20 on a quiet machine), for a loaded one with another
// test file beside it; 1,200 requests get 240 s.
vi.setConfig({ testTimeout: Math.max(240_000, REQUESTS * 200) });

const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=latin1',
  'multipart/form-data; boundary=XyZ',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/octet-stream',
  'APPLICATION/JSON',
  ';;;',
  'multipart/mixed; boundary=XyZ',
];

function multipartBody(rng: Rng, boundary: string, parts: number): Buffer {
  const chunks: Buffer[] = [];
  for (let i = 0; i < parts; i++) {
    const isFile = rng.next() < 0.3;
    const name = rng.next() < 0.1 ? rng.text(rng.int(300)) : `f${i}`;
    const disposition = isFile
      ? `form-data; name="${name}"; filename="${rng.pick(['a.txt', 'x.exe', '', '../../etc/passwd', rng.text(20)])}"`
      : `form-data; name="${name}"`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`),
      Buffer.from(
        isFile
          ? `Content-Type: ${rng.pick(['text/plain', 'bad', 'image/png', ''])}\r\n\r\n`
          : '\r\n',
      ),
      rng.next() < 0.5 ? Buffer.from(rng.text(rng.int(200))) : rng.bytes(rng.int(2000)),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Every name `Object.prototype` has: `constructor`, `toString`, `__proto__`, … */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

/**
 * A valid post whose answers are named like inherited properties, in one of
 * the three encodings, with the answers it must store: names starting with
 * `_` (`__proto__`, …) are special fields and never stored.
 */
function prototypeNamedPost(rng: Rng, base: SubmitOptions): FuzzRequest {
  const pairs: [string, string][] = [];
  for (const name of PROTOTYPE_NAMES) {
    if (rng.next() < 0.5) pairs.push([name, `${rng.int(1000)} ${name}`]);
  }
  pairs.push(['plain', `v${rng.int(1_000_000)}`]);
  const expected = Object.fromEntries(pairs.filter(([name]) => !name.startsWith('_')));
  const json: Record<string, string> = {};
  for (const [name, value] of pairs) {
    Object.defineProperty(json, name, { value, enumerable: true });
  }
  switch (rng.int(3)) {
    case 0:
      return { ...base, form: pairs, expected };
    case 1:
      return { ...base, body: JSON.stringify(json), contentType: 'application/json', expected };
    default: {
      const boundary = 'ProtoXyZ';
      const parts = pairs.map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      return {
        ...base,
        body: `${parts.join('')}--${boundary}--\r\n`,
        contentType: `multipart/form-data; boundary=${boundary}`,
        expected,
      };
    }
  }
}

type FuzzRequest = SubmitOptions & { expected?: Record<string, string> };

/** One malformed (or merely odd) request, or a valid one whose stored answers are known. */
function generate(rng: Rng): FuzzRequest {
  const headers: Record<string, string> = {};
  if (rng.next() < 0.3) headers['user-agent'] = rng.headerText(rng.int(4000));
  if (rng.next() < 0.2)
    headers.referer = rng.pick([
      'javascript:alert(1)',
      'not a url',
      `https://x.example/${'p'.repeat(rng.int(6000))}`,
    ]);
  if (rng.next() < 0.2)
    headers.origin = rng.pick(['null', 'https://a.example', '%%%', 'http://[::1]:99999']);
  if (rng.next() < 0.2)
    headers.accept = rng.pick(['text/html', '*/*', 'text/html;q=0', ';;', 'application/json']);
  if (rng.next() < 0.1) headers['cloudfront-viewer-country'] = rng.pick(['XX', 'de', 'ÿÿ', '']);
  if (rng.next() < 0.1)
    headers['cloudfront-is-mobile-viewer'] = rng.pick(['true', 'false', 'maybe']);
  const base = { headers, from: freshVisitor(), allowServerError: true };
  switch (rng.int(12)) {
    case 0:
      return { ...base, body: rng.bytes(rng.int(5000)), contentType: rng.pick(CONTENT_TYPES) };
    case 1: {
      const full = multipartBody(rng, 'XyZ', 1 + rng.int(5));
      return {
        ...base,
        body: full.subarray(0, rng.int(full.length)),
        contentType: 'multipart/form-data; boundary=XyZ',
      };
    }
    case 2:
      return {
        ...base,
        body: multipartBody(rng, rng.pick(['XyZ', 'other', '']), 1 + rng.int(5)),
        contentType: `multipart/form-data; boundary=${rng.pick(['XyZ', 'Lying', '"quoted"', 'a'.repeat(100)])}`,
      };
    case 3:
      return {
        ...base,
        body: Buffer.concat([Buffer.from('a=%FF%FE%00&b='), rng.bytes(50), Buffer.from('&c=ok')]),
        contentType: 'application/x-www-form-urlencoded',
      };
    case 4: {
      const count = 51 + rng.int(300);
      const pairs = Array.from(
        { length: count },
        (_, i) => [`n${i}`, rng.text(rng.int(20))] as [string, string],
      );
      return { ...base, form: pairs };
    }
    case 5:
      return { ...base, json: { long: 'x'.repeat(10_001 + rng.int(5000)), other: 'y' } };
    case 6:
      return { ...base, json: { [rng.text(300)]: 'value', ['n'.repeat(300)]: 'v', ok: 'fine' } };
    case 7: {
      let nested: unknown = 'leaf';
      for (let i = rng.int(800); i > 0; i--) nested = rng.next() < 0.5 ? [nested] : { k: nested };
      return { ...base, json: { nested, plain: 'p' } };
    }
    case 8:
      return {
        ...base,
        body: rng.pick(['[1,2,3]', 'null', '42', '"s"', '[]', '{"a":', '{"a":1}}', '\u0000{}']),
        contentType: 'application/json',
      };
    case 9:
      return {
        ...base,
        json: {
          'nul\u0000name': 'val\u0000ue',
          _t: rng.pick(['', 'NaN', '-1', '1e400', String(Date.now() + 1e9)]),
          _redirect: rng.pick(['javascript:x', 'https://evil.example', '//x', '']),
          _gotcha: rng.pick(['', '', 'x']),
          'cf-turnstile-response': rng.text(10),
          [`a${rng.int(100)}`]: rng.text(rng.int(100)),
        },
      };
    case 10:
      return prototypeNamedPost(rng, base);
    default:
      return {
        ...base,
        headers: { ...headers, 'x-padding': 'h'.repeat(2000 + rng.int(6000)) },
        json: { a: rng.text(30) },
      };
  }
}

describe('submit endpoint fuzz', () => {
  it(`answers ${REQUESTS} malformed requests without a 5xx, and every stored id reads back`, async () => {
    const { submissions } = await localStore();
    // Several forms keep each under the per-form rate limit (600 a minute).
    const forms = await Promise.all([
      // Notifications off: the fuzz tests the endpoint, not a thousand emails behind other tests.
      newForm('free', { notifyEnabled: false }),
      newForm('pro', { allowUploads: true, notifyEnabled: false }),
      newForm('pro', {
        fields: [{ id: 'email', type: 'email', required: true }],
        notifyEnabled: false,
      }),
      newForm('free', { maxSubmissions: 50, notifyEnabled: false }),
      newForm('pro', { allowUploads: true, uploadLimitMb: 1, notifyEnabled: false }),
    ]);
    const rng = random(SEED);
    const plans = Array.from({ length: REQUESTS }, (_, i) => ({
      form: forms[i % forms.length]!,
      options: generate(rng),
    }));
    const results: {
      status: number;
      formId: string;
      submissionId?: string;
      expected?: Record<string, string>;
      label: string;
    }[] = [];
    let cursor = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (cursor < plans.length) {
          const index = cursor++;
          const { form, options } = plans[index]!;
          const response = await submit(form.key, options).catch((error: Error) => ({
            status: -1,
            body: undefined,
            text: error.message,
          }));
          results.push({
            status: response.status,
            formId: form.id,
            submissionId: response.body?.submissionId as string | undefined,
            expected: options.expected,
            label: `#${index} (seed ${SEED}) ${response.text.slice(0, 200)}`,
          });
        }
      }),
    );
    const serverErrors = results.filter((r) => r.status >= 500 || r.status < 0);
    expect(serverErrors.map((r) => `${r.status} ${r.label}`)).toEqual([]);
    const stored = results.filter((r) => r.status === 200 && r.submissionId);
    // The generator must reach the storing path often, or it tests nothing.
    expect(stored.length).toBeGreaterThan(REQUESTS / 10);
    for (const result of stored) {
      const submission = await submissions.getSubmission(result.formId, result.submissionId!);
      expect(submission, result.label).toBeDefined();
      expect(Object.keys(submission!.data).length).toBeLessThanOrEqual(51);
      for (const value of Object.values(submission!.data)) {
        expect([...value].length).toBeLessThanOrEqual(10_000);
      }
      if (result.expected) {
        const { _invalid, ...answers } = submission!.data;
        expect(answers, result.label).toEqual(result.expected);
      }
    }
    // Posts named like Object.prototype properties must reach the store and read back intact.
    const prototypeNamed = stored.filter((r) => r.expected);
    expect(prototypeNamed.length).toBeGreaterThan(REQUESTS / 60);
    const statuses: Record<number, number> = {};
    for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
    process.stdout.write(`fuzz statuses (seed ${SEED}): ${JSON.stringify(statuses)}\n`);
  });
});
