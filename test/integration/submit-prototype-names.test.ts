import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';

/**
 * Answers named like the properties every JavaScript object inherits. Those
 * not starting with `_` are ordinary answers; `__proto__` and the other
 * `__…__` names start with an underscore, so docs/submit.md#special-fields makes them special
 * fields that are never stored.
 */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const ORDINARY = PROTOTYPE_NAMES.filter((name) => !name.startsWith('_'));
const UNDERSCORED = PROTOTYPE_NAMES.filter((name) => name.startsWith('_'));

const answerTo = (name: string) => `answer to ${name}`;
const expectedData = Object.fromEntries(ORDINARY.map((name) => [name, answerTo(name)]));

async function readSubmission(form: TestForm, submissionId: string) {
  const response = await api('GET', `/v1/forms/${form.id}/submissions/${submissionId}`, {
    key: form.apiKey,
  });
  expect(response.status, response.text).toBe(200);
  return response.body as { data: Record<string, string>; isSpam: boolean };
}

/** Every name once, in a JSON object built with own properties (`__proto__` included). */
function jsonBody(): Record<string, string> {
  const body: Record<string, string> = {};
  for (const name of PROTOTYPE_NAMES) {
    Object.defineProperty(body, name, { value: answerTo(name), enumerable: true });
  }
  return body;
}

describe('POST /s/{key}: answers named like Object.prototype properties', () => {
  it('has names of both kinds to test', () => {
    expect(ORDINARY).toEqual(expect.arrayContaining(['constructor', 'toString', 'valueOf']));
    expect(UNDERSCORED).toContain('__proto__');
  });

  it.each(['urlencoded', 'json', 'multipart'] as const)(
    'stores and returns every one as an ordinary answer (%s); __…__ names are special fields',
    async (kind) => {
      const form = await newForm('free');
      const pairs = PROTOTYPE_NAMES.map((name) => [name, answerTo(name)] as [string, string]);
      const from = freshVisitor();
      const response =
        kind === 'urlencoded'
          ? await submit(form.key, { form: pairs, from })
          : kind === 'json'
            ? await submit(form.key, {
                body: JSON.stringify(jsonBody()),
                from,
                contentType: 'application/json',
              })
            : await submit(form.key, {
                ...(await multipart((data) => {
                  for (const [name, value] of pairs) data.append(name, value);
                })),
                from,
              });
      expect(response.status, response.text).toBe(200);
      const submission = await readSubmission(form, response.body?.submissionId as string);
      expect(submission.data).toEqual(expectedData);
      expect(Object.keys(submission.data).sort()).toEqual([...ORDINARY].sort());
      expect(submission.isSpam).toBe(false);
    },
  );

  it('a post of only __proto__ is empty (422) and stores nothing', async () => {
    const form = await newForm('free');
    const response = await submit(form.key, {
      body: '{"__proto__":{"polluted":"yes"},"__defineGetter__":"x"}',
      contentType: 'application/json',
      from: freshVisitor(),
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ ok: false, error: 'empty_submission' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('field checks, the list, the CSV export and the duplicate rule treat them like any answer', async () => {
    const form = await newForm('free', {
      fields: [
        { id: 'constructor', type: 'text', required: true, maxLength: 5 },
        { id: 'toString', type: 'email' },
        { id: 'hasOwnProperty', type: 'number', required: true },
      ],
    });
    const answers = { constructor: 'too long', toString: 'not-an-email', valueOf: 'v' };
    const visitor = freshVisitor();
    const first = await submit(form.key, { json: answers, from: visitor });
    expect(first.status, first.text).toBe(200);
    const stored = await readSubmission(form, first.body?.submissionId as string);
    expect(JSON.parse(stored.data._invalid!)).toEqual([
      { fieldId: 'constructor', reason: 'too_long' },
      { fieldId: 'toString', reason: 'invalid_email' },
      { fieldId: 'hasOwnProperty', reason: 'required' },
    ]);
    expect(stored.data).toMatchObject(answers);

    // The same answers from the same visitor in another order and encoding: a duplicate, so spam.
    const again = await submit(form.key, {
      form: [
        ['valueOf', 'v'],
        ['toString', 'not-an-email'],
        ['constructor', 'too long'],
      ],
      from: visitor,
    });
    expect(again.status).toBe(200);
    expect((await readSubmission(form, again.body?.submissionId as string)).isSpam).toBe(true);

    const list = await api('GET', `/v1/forms/${form.id}/submissions`, { key: form.apiKey });
    expect(list.status).toBe(200);
    const items = list.body.items as { id: string; data: Record<string, string> }[];
    expect(items.map((item) => item.id)).toEqual([first.body?.submissionId]);
    expect(items[0]!.data).toMatchObject(answers);

    const csv = await fetch(`${stack().baseUrl}/v1/forms/${form.id}/export.csv`, {
      headers: { authorization: `Bearer ${form.apiKey}` },
    });
    expect(csv.status).toBe(200);
    const [header, row] = parseCsv(Buffer.from(await csv.arrayBuffer()), {
      bom: true,
    }) as string[][];
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(header!.slice(2, 6)).toEqual(['constructor', 'toString', 'hasOwnProperty', 'valueOf']);
    expect([
      cell('constructor'),
      cell('toString'),
      cell('hasOwnProperty'),
      cell('valueOf'),
    ]).toEqual(['too long', 'not-an-email', '', 'v']);
  });

  it('link spam in an answer named constructor is caught', async () => {
    const form = await newForm('free');
    const response = await submit(form.key, {
      form: [['constructor', 'http://a.example http://b.example http://c.example']],
      from: freshVisitor(),
    });
    expect(response.status).toBe(200);
    expect((await readSubmission(form, response.body?.submissionId as string)).isSpam).toBe(true);
  });
});
