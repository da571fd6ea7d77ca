import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { type DynamoDbMeter, meterDynamoDb } from '#test/support/dynamodb-meter.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

/**
 * The CSV export's header from the form's column catalogue (issue 14): the
 * storing transaction adds the answer names a post brings, so the export
 * walks the folder once. The pipeline and the export body run in this
 * process against the local table, with a meter on the one DynamoDB client.
 */

const FIELDS = [
  { id: 'email', type: 'email' },
  { id: 'name', type: 'text' },
  { id: 'message', type: 'textarea' },
];

let visitors = 0;
const request = (key: string, answers: Record<string, string>) => ({
  key,
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(answers)),
  // A visitor of its own each post: no rate limit is met.
  ip: `203.0.113.${++visitors}`,
  country: 'NL',
  deviceClass: 'desktop' as const,
  userAgent: 'export-columns-test',
  origin: undefined,
  referer: undefined,
});

/** Records the keys each TransactWriteItems writes. */
function recordTransactions(client: DynamoDBClient) {
  const written: string[][] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') {
        const items = (args.input as { TransactItems: Record<string, { Key?: unknown }>[] })
          .TransactItems;
        written.push(
          items.map((item) => {
            const [op, request] = Object.entries(item)[0]!;
            const key = (request as { Key?: { sk?: { S?: string } } }).Key?.sk?.S;
            const put = (request as { Item?: { sk?: { S?: string } } }).Item?.sk?.S;
            return `${op} ${key ?? put}`;
          }),
        );
      }
      return next(args);
    },
    { step: 'build', name: 'transactionRecorder', override: true },
  );
  return written;
}

describe('the column catalogue of the CSV export', () => {
  let store: Awaited<ReturnType<typeof localStore>>;
  let meter: { meter: DynamoDbMeter; reset: () => void };
  let transactions: string[][];
  let acceptSubmission: typeof import('#http/submit/pipeline.ts').acceptSubmission;
  let exportBody: typeof import('#http/submissions/export-body.ts').exportBody;
  let keys: typeof import('#store/keys.ts');
  let documents: typeof import('#store/client.ts').documents;
  let tableName: string;

  beforeAll(async () => {
    store = await localStore();
    const client = await import('#store/client.ts');
    documents = client.documents;
    meter = meterDynamoDb(client.dynamodb);
    transactions = recordTransactions(client.dynamodb);
    ({ acceptSubmission } = await import('#http/submit/pipeline.ts'));
    ({ exportBody } = await import('#http/submissions/export-body.ts'));
    keys = await import('#store/keys.ts');
    tableName = (await import('#config')).config.tableName;
  });

  const post = async (form: TestForm, answers: Record<string, string>) => {
    transactions.length = 0;
    const outcome = await acceptSubmission(request(form.key, answers), new Date());
    expect(outcome.kind).toBe('stored');
    return transactions.flat();
  };

  const catalogueItem = async (formId: string) =>
    (
      await documents.send(
        new GetCommand({ TableName: tableName, Key: keys.formColumnsKey(formId) }),
      )
    ).Item;

  /** The export as the handler makes it (form read included), metered. */
  const exported = async (form: TestForm, filter: 'all' | 'spam' = 'all') => {
    meter.reset();
    const { form: stored, columns } = await store.forms.getTeamFormWithColumns(
      form.teamId,
      form.id,
    );
    let text = '';
    for await (const chunk of exportBody(stored, columns, filter, new Date().toISOString())) {
      text += chunk;
    }
    const records = parseCsv(text, { bom: true }) as string[][];
    const usage = { ...meter.meter, calls: [...meter.meter.calls] };
    return { header: records[0]!, rows: records.slice(1), usage };
  };

  const answerColumns = (header: string[]) => header.slice(2, header.indexOf('read'));

  it('a post with a new answer name gets its column with one walk of the folder', async () => {
    const form = await newForm('pro', { fields: FIELDS }, { name: 'Catalogue', type: 'custom' });
    await seedSubmissions({ formId: form.id, teamId: form.teamId, count: 250 });
    const written = await post(form, { email: 'ada@example.com', company: 'Acme' });
    expect(written, 'the catalogue is written in the storing transaction').toContain(
      'Update FORM#COLUMNS',
    );

    const { header, rows, usage } = await exported(form);
    expect(answerColumns(header)).toEqual(['email', 'name', 'message', 'company']);
    expect(rows).toHaveLength(251);
    expect(rows[0]![header.indexOf('company')]).toBe('Acme');
    // The form with its shards and catalogue (one Query), then one walk: one
    // Query of the folder's keys (400 a page) and a BatchGet per 100 rows.
    expect(usage.calls).toEqual([
      'QueryCommand',
      'QueryCommand',
      'BatchGetItemCommand',
      'BatchGetItemCommand',
      'BatchGetItemCommand',
    ]);
    const perRow = usage.readCapacity / rows.length;
    // Eventually consistent BatchGets of < 4 KB items: 0.5 a row, plus the index page and the form read.
    expect(perRow, `read units per row: ${perRow}`).toBeLessThan(0.6);
    expect(perRow).toBeGreaterThanOrEqual(0.5);
  });

  it('a post with only known names does not write the catalogue', async () => {
    const form = await newForm('pro', { fields: FIELDS }, { name: 'Known', type: 'custom' });
    const first = await post(form, { email: 'ada@example.com', name: 'Ada', referral: 'friend' });
    expect(first).toContain('Update FORM#COLUMNS');
    const before = await catalogueItem(form.id);
    expect(
      Object.keys(before!)
        .filter((name) => name.startsWith('a#'))
        .sort(),
    ).toEqual(['a#email', 'a#name', 'a#referral']);

    // Known names only (a field not answered before is new: `message`).
    const known = await post(form, { email: 'bob@example.com', referral: 'ad' });
    expect(known.some((item) => item.endsWith('FORM#COLUMNS'))).toBe(false);
    expect(await catalogueItem(form.id)).toEqual(before);

    const field = await post(form, { email: 'cy@example.com', message: 'Hello' });
    expect(field).toContain('Update FORM#COLUMNS');
    // The time of a name's first post is kept; `_invalid` (a failed check) is no column.
    const after = await catalogueItem(form.id);
    expect(after!['a#email']).toBe(before!['a#email']);
    expect(after!['a#_invalid']).toBeUndefined();
    expect(after!.complete).toBe(true);

    // A test submission sets its names (known ones keep their time).
    const test = await api('POST', `/v1/forms/${form.id}/test-submissions`, { key: form.apiKey });
    expect(test.status, test.text).toBe(201);
    expect((await catalogueItem(form.id))!['a#email']).toBe(before!['a#email']);
  });

  it('a form stored before catalogues is exported in two passes, completely', async () => {
    const form = await newForm('pro', { fields: FIELDS }, { name: 'Old form', type: 'custom' });
    await documents.send(
      new DeleteCommand({ TableName: tableName, Key: keys.formColumnsKey(form.id) }),
    );
    await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: 120,
      catalogue: false,
      data: (i) => ({ email: `v${i}@example.com`, ...(i === 0 ? { legacy: 'old' } : {}) }),
    });
    // A new post creates the catalogue, which still lacks `legacy`: not complete.
    expect(await post(form, { email: 'new@example.com', fresh: 'new' })).toContain(
      'Update FORM#COLUMNS',
    );
    expect((await catalogueItem(form.id))!.complete).toBeUndefined();

    const { header, rows, usage } = await exported(form);
    expect(answerColumns(header)).toEqual(['email', 'name', 'message', 'fresh', 'legacy']);
    expect(rows).toHaveLength(121);
    expect(rows.filter((row) => row[header.indexOf('legacy')] === 'old')).toHaveLength(1);
    // Two walks: two Queries of the folder's keys after the form read.
    expect(usage.calls.filter((call) => call === 'QueryCommand')).toHaveLength(3);
    expect(usage.calls.filter((call) => call === 'BatchGetItemCommand')).toHaveLength(4);
  });

  it('names past the cap are not added; the header is capped; purging removes the catalogue', async () => {
    const { MAX_EXTRA_ANSWER_COLUMNS } = await import('#domain/answer-columns.ts');
    const form = await newForm('pro', { fields: FIELDS }, { name: 'Capped', type: 'custom' });
    // 20 submissions of 50 names each fill the cap (1,000 extra names).
    const perPost = 50;
    await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: MAX_EXTRA_ANSWER_COLUMNS / perPost,
      data: (i) =>
        Object.fromEntries(
          Array.from({ length: perPost }, (_, j) => [
            `x${String(i * perPost + j).padStart(4, '0')}`,
            'v',
          ]),
        ),
    });
    const over = await post(form, { email: 'ada@example.com', overflow: 'x' });
    // `email` is a field id: it goes in past the cap; `overflow` does not.
    expect(over).toContain('Update FORM#COLUMNS');
    const item = await catalogueItem(form.id);
    expect(item!['a#email']).toBeDefined();
    expect(item!['a#overflow']).toBeUndefined();
    expect(await post(form, { email: 'bob@example.com', overflow: 'y' })).not.toContain(
      'Update FORM#COLUMNS',
    );

    const { header, rows } = await exported(form);
    expect(answerColumns(header)).toHaveLength(FIELDS.length + MAX_EXTRA_ANSWER_COLUMNS);
    expect(header).not.toContain('overflow');
    expect(rows).toHaveLength(22);

    await store.forms.purgeFormPartition(form.id);
    expect(await catalogueItem(form.id)).toBeUndefined();
  });
});
