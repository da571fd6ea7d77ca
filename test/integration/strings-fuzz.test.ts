import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';
import { type Rng, random } from '#test/support/seeded-random.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

/**
 * Strings as a hostile client writes them in JSON: lone surrogates (only
 * JSON escapes can carry them), controls, bidi overrides, long runs, NULs.
 */
function nastyString(rng: Rng): string {
  const parts = [
    '\\ud800',
    '\\udfff',
    '\\ud83d',
    '\\ud83d\\ude00',
    '\\u0000',
    '\\u202e',
    '\\r\\n',
    '%',
    '"',
    '\\\\',
    '<script>',
    'é',
    'a'.repeat(rng.int(3) === 0 ? 1200 : 3),
  ];
  return `"${Array.from({ length: 1 + rng.int(6) }, () => rng.pick(parts)).join('')}"`;
}

const SETTING_STRINGS = [
  'name',
  'emoji',
  'closedMessage',
  'notifySubject',
  'notifyFromName',
  'notifyEmail',
  'autoreplySubject',
  'autoreplyBody',
  'completionTitle',
  'completionMessage',
  'redirectUrl',
  'captchaSiteKey',
  'captchaSecretKey',
];

function settingsBody(rng: Rng): string {
  const entries: string[] = [];
  for (let i = 0; i < 1 + rng.int(3); i++)
    entries.push(`"${rng.pick(SETTING_STRINGS)}":${nastyString(rng)}`);
  const roll = rng.int(4);
  if (roll === 0) {
    entries.push(
      `"design":{"title":${nastyString(rng)},"description":${nastyString(rng)},"submitLabel":${nastyString(rng)}}`,
    );
  } else if (roll === 1) {
    entries.push(
      `"fields":[{"id":"a","type":"select","label":${nastyString(rng)},"options":[${nastyString(rng)}],"placeholder":${nastyString(rng)},"helpText":${nastyString(rng)}},{"id":${nastyString(rng)},"type":"text","pattern":${nastyString(rng)}}]`,
    );
  } else if (roll === 2) {
    entries.push(`"allowedOrigins":[${nastyString(rng)}],"blockedIps":[${nastyString(rng)}]`);
  }
  return `{${entries.join(',')}}`;
}

function uploadsBody(rng: Rng): string {
  const file = () =>
    `{"name":${nastyString(rng)},"size":${rng.pick(['1', '3', '0', '-1', '1e9', '"3"'])}${rng.next() < 0.5 ? `,"type":${nastyString(rng)}` : ''}${rng.next() < 0.3 ? `,"field":${nastyString(rng)}` : ''}}`;
  return `{"files":[${Array.from({ length: 1 + rng.int(3) }, file).join(',')}]}`;
}

describe('strings no encoder can take never make a 5xx, and what is kept is well formed', () => {
  it('the direct-uploads route under 150 generated bodies', async () => {
    const rng = random(SEED);
    const form = await newForm('pro', { allowUploads: true });
    const statuses = new Map<number, number>();
    for (let i = 0; i < 150; i++) {
      const response = await submit(form.key, {
        path: `/s/${form.key}/uploads`,
        body: uploadsBody(rng),
        contentType: 'application/json',
        from: freshVisitor(),
        allowServerError: true,
      });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    expect(statuses.get(200), 'some bodies were fine').toBeGreaterThan(0);
    process.stdout.write(`uploads strings fuzz (seed ${SEED}): ${JSON.stringify([...statuses])}\n`);
  });

  it('every string setting of a form, the webhook URL and the copy suffix under 200 generated bodies', async () => {
    const rng = random(SEED + 1);
    const form = await newForm('pro');
    const statuses = new Map<number, number>();
    const send = async (method: string, path: string, body: string) => {
      const response = await api(method, path, {
        key: form.apiKey,
        rawBody: body,
        headers: { 'content-type': 'application/json' },
        allowServerError: true,
      });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      return response;
    };
    for (let i = 0; i < 200; i++) {
      const kind = rng.int(10);
      if (kind === 0) await send('POST', '/v1/forms', `{"name":${nastyString(rng)}}`);
      else if (kind === 1)
        await send('PUT', `/v1/forms/${form.id}/webhook`, `{"url":${nastyString(rng)}}`);
      else if (kind === 2)
        await send('POST', `/v1/forms/${form.id}/duplicate`, `{"nameSuffix":${nastyString(rng)}}`);
      else await send('PATCH', `/v1/forms/${form.id}`, settingsBody(rng));
    }
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    expect(statuses.get(200), 'some changes were taken').toBeGreaterThan(0);
    const stored = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(stored.status).toBe(200);
    expect(stored.text.isWellFormed()).toBe(true);
    expect(stored.text).not.toMatch(/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
    process.stdout.write(
      `settings strings fuzz (seed ${SEED}): ${JSON.stringify([...statuses])}\n`,
    );
  });
});
