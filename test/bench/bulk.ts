/**
 * `npm run bench:bulk [-- --submissions N]`: N unread submissions (seeded
 * through the store), then one `PATCH { target: { filter: 'all', asOf },
 * read: true }` over real HTTP (repeated while it answers 503 incomplete).
 * Prints the seconds, the requests and transactions it took, and checks the
 * form's counters against a fresh count of the items.
 */
import { parseArgs } from 'node:util';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { meterDynamoDb, routeCallsOnly, untilIdle } from '#test/support/dynamodb-meter.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { withBenchStack } from './bench-stack.ts';

const { values } = parseArgs({ options: { submissions: { type: 'string', default: '10000' } } });
const SUBMISSIONS = Number(values.submissions);

await withBenchStack(async ({ api, newForm, stack }) => {
  const form = await newForm('Bulk bench');
  await seedSubmissions({ formId: form.id, teamId: form.teamId, count: SUBMISSIONS });
  const { dynamodb, documents } = await import('#store/client.ts');
  const { config } = await import('#config');
  const { meter } = meterDynamoDb(dynamodb, routeCallsOnly);
  // The seed's stream records reach the fan-out after it returns: let them pass first.
  await untilIdle(meter);
  const body = { target: { filter: 'all', asOf: new Date().toISOString() }, read: true };
  const started = performance.now();
  let changed = 0;
  let requests = 0;
  for (;;) {
    requests += 1;
    const response = await api('PATCH', `/v1/forms/${form.id}/submissions`, body);
    const answer = response.body as { count: number };
    changed += answer.count;
    if (response.status === 200) break;
    if (response.status !== 503) throw new Error(`bulk answered ${response.status}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const transactions = meter.calls.filter((call) => call === 'TransactWriteItemsCommand').length;

  // Fresh count of the items against the counters.
  let unread = 0;
  let all = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: stack.info.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sub)',
        ExpressionAttributeValues: { ':pk': `FORM#${form.id}`, ':sub': 'SUB#' },
        ProjectionExpression: '#read, isSpam',
        ExpressionAttributeNames: { '#read': 'read' },
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of page.Items ?? []) {
      if (!item.isSpam) all += 1;
      if (!item.isSpam && !item.read) unread += 1;
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  const { readCounters } = await import('#store/form-counters.ts');
  const { folders } = await readCounters(form.id, { consistent: true });
  const counters = { all: folders.all, unread: folders.unread };
  const exact = counters.all === all && counters.unread === unread && changed === SUBMISSIONS;
  process.stdout.write(
    `${JSON.stringify(
      {
        submissions: SUBMISSIONS,
        parallelTransactions: config.bulkParallelTransactions,
        seconds: Number(seconds.toFixed(2)),
        submissionsPerSecond: Math.round(SUBMISSIONS / seconds),
        requests,
        changed,
        transactions,
        capacityUnits: Math.round(meter.capacity),
        counters,
        freshCount: { all, unread },
        exact,
      },
      null,
      2,
    )}\n`,
  );
  if (!exact) process.exitCode = 1;
});
