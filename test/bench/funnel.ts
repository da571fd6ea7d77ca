/**
 * `npm run bench:funnel`: what one beacon of the view route costs in
 * DynamoDB (docs/analytics.md#the-funnel), on a form of 3 pages, over real
 * HTTP to an in-process local stack: a view, a `started` step, a page
 * step, a step past the visitor's 10 a minute, a robot's step and a page
 * the form lacks. Prints for each its calls, sequential round trips, read
 * and write units (DynamoDB Local's ConsumedCapacity), and the form item's
 * size, which a page step's read is paid by.
 */
import { meterDynamoDb, routeCallsOnly, untilIdle } from '#test/support/dynamodb-meter.ts';
import { withBenchStack } from './bench-stack.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

await withBenchStack(async ({ stack, api, newForm }) => {
  const { dynamodb } = await import('#store/client.ts');
  const { meter, reset } = meterDynamoDb(dynamodb, routeCallsOnly);
  const form = await newForm('Funnel bench');
  const paged = await api('PATCH', `/v1/forms/${form.id}`, {
    fields: [
      { id: 'kind', type: 'radio', label: 'Who for', options: ['Personal', 'Business'] },
      { id: 'company', type: 'text', label: 'Company' },
      { id: 'message', type: 'textarea', label: 'Message' },
    ],
    pages: [
      { id: 'about', fields: ['kind'] },
      { id: 'business', title: 'Your company', fields: ['company'] },
      { id: 'done', fields: ['message'] },
    ],
  });
  if (paged.status !== 200) throw new Error(`PATCH pages answered ${paged.status}`);

  const beacon = (query: string, agent = FIREFOX) =>
    fetch(`${stack.info.baseUrl}/f/${form.key}/views${query}`, {
      method: 'POST',
      headers: { 'user-agent': agent },
    });
  const measured: Record<string, unknown> = {};
  const measure = async (name: string, query: string, agent = FIREFOX) => {
    await untilIdle(meter);
    reset();
    const answer = await beacon(query, agent);
    await untilIdle(meter);
    measured[name] = {
      status: answer.status,
      calls: meter.calls.join(', '),
      rounds: meter.rounds,
      readUnits: Number(meter.readCapacity.toFixed(1)),
      writeUnits: Number(meter.writeCapacity.toFixed(1)),
    };
  };
  await measure('view', '');
  await measure('started', '?reached=started');
  await measure('page 2', '?reached=2');
  await measure('robot’s step', '?reached=2', BOT);
  // Another visitor (another agent) sends 10 steps, then an 11th over its budget, in one
  // minute: a minute about to turn is let pass first, so the budget is the same throughout.
  const visitor = `${FIREFOX} (budget)`;
  while (Date.now() % 60_000 > 45_000) await new Promise((resolve) => setTimeout(resolve, 1000));
  const minute = Math.floor(Date.now() / 60_000);
  for (let i = 0; i < 10; i++) await beacon('?reached=3', visitor);
  await measure('step past 10 a minute', '?reached=3', visitor);
  await measure('page the form lacks (400)', '?reached=4');
  const { documents } = await import('#store/client.ts');
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { config } = await import('#config');
  const item = await documents.send(
    new GetCommand({ TableName: config.tableName, Key: { pk: `FORM#${form.id}`, sk: 'FORM' } }),
  );
  const sameMinute = Math.floor(Date.now() / 60_000) === minute;
  process.stdout.write(
    `${JSON.stringify(
      {
        beacons: measured,
        formItemBytes: JSON.stringify(item.Item).length,
        // A minute that turned mid-run resets the budget: the past-10 row is then a counted step.
        sameMinute,
      },
      null,
      2,
    )}\n`,
  );
});
