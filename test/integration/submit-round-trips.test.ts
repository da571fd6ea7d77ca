import { describe, expect, it } from 'vitest';
import { meterDynamoDb } from '#test/support/dynamodb-meter.ts';
import { newForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';

/**
 * The submit pipeline run in this process against the local table, with a
 * middleware on the one DynamoDB client that counts sequential round trips
 * (a call starting while none is in flight opens a new one; parallel calls
 * share it) and asks every call for its consumed capacity.
 */
async function instrumented() {
  await localStore();
  const { dynamodb } = await import('#store/client.ts');
  const { acceptSubmission } = await import('#http/submit/pipeline.ts');
  const { meter, reset } = meterDynamoDb(dynamodb);
  return { acceptSubmission, meter, reset };
}

const request = (key: string, answers: Record<string, string>) => ({
  key,
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(answers)),
  ip: '203.0.113.9',
  country: 'NL',
  deviceClass: 'desktop' as const,
  userAgent: 'round-trip-test',
  origin: undefined,
  referer: undefined,
});

describe('an accepted submission without files', () => {
  it('takes at most 4 sequential DynamoDB round trips', async () => {
    const { acceptSubmission, meter, reset } = await instrumented();
    const form = await newForm('pro', {
      fields: [
        { id: 'email', type: 'email', required: true },
        { id: 'message', type: 'textarea' },
      ],
      maxSubmissions: 1000,
    });
    reset();
    const outcome = await acceptSubmission(
      request(form.key, { email: 'ada@example.com', message: 'Hello there' }),
      new Date(),
    );
    expect(outcome.kind).toBe('stored');
    // Key lookup; then in parallel the form with its counter shards (Query),
    // the team (GetItem) and the month's usage shards (Query); both rate
    // windows; the transaction.
    expect(meter.calls).toEqual([
      'GetItemCommand',
      'QueryCommand',
      'GetItemCommand',
      'QueryCommand',
      'UpdateItemCommand',
      'UpdateItemCommand',
      'TransactWriteItemsCommand',
    ]);
    // The key lookup reads consistently: a rotated key's old endpoint stops at once
    // (docs/forms.md#deleting-duplicating-rotating-testing), which DynamoDB Local,
    // never lagging, cannot show by behaviour.
    expect(meter.consistent[0]).toBe(true);
    expect(meter.rounds).toBeLessThanOrEqual(4);
    expect(meter.capacity).toBeGreaterThan(0);
    process.stdout.write(
      `accepted post: ${meter.rounds} sequential round trips, ${meter.calls.length} calls, ${meter.capacity} capacity units\n`,
    );
  });
});
