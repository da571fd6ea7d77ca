import { describe, expect, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import {
  connectWebhook,
  type DeliveryView,
  deliveriesOf,
  eventually,
  newReceiver,
} from '#test/support/delivery.ts';
import { newForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000 });

describe('GET /v1/forms/{id}/webhook/deliveries?submissionId=: one submission’s delivery', () => {
  it('answers that delivery alone (or none), with status and after applied, in one read; a bad id is a 400 naming it', async () => {
    const hooks = await newReceiver();
    hooks.script([{ status: 410 }], { status: 200 });
    const form = await newForm('pro');
    const ids: string[] = [];
    try {
      await connectWebhook(form, hooks.url);
      for (const n of [1, 2, 3]) {
        const post = await submit(form.key, { json: { n: String(n) }, from: freshVisitor() });
        ids.push(post.body?.submissionId as string);
        await hooks.waitFor(n);
      }
    } finally {
      await hooks.close();
    }
    await eventually(
      () => deliveriesOf(form),
      (list) => list.length === 3 && list.every((d) => d.status !== 'pending'),
    );
    const [first, second] = ids as [string, string, string];

    const one = await api('GET', `/v1/forms/${form.id}/webhook/deliveries?submissionId=${second}`, {
      key: form.apiKey,
    });
    expect(one.status, one.text).toBe(200);
    expect(one.body.next).toBeNull();
    expect((one.body.deliveries as DeliveryView[]).map((d) => [d.submissionId, d.status])).toEqual([
      [second, 'delivered'],
    ]);
    expect(
      (await deliveriesOf(form, `?submissionId=${first}&status=failed`)).map((d) => d.attemptCount),
    ).toEqual([1]);
    expect(await deliveriesOf(form, `?submissionId=${first}&status=delivered`)).toEqual([]);
    expect(await deliveriesOf(form, `?submissionId=${second}&after=${first}`)).toEqual([]);
    expect(await deliveriesOf(form, `?submissionId=${crypto.randomUUID()}`)).toEqual([]);
    expect(
      (await deliveriesOf(form, `?submissionId=${second.toUpperCase()}`)).map(
        (d) => d.submissionId,
      ),
    ).toEqual([second]);

    const bad = await api('GET', `/v1/forms/${form.id}/webhook/deliveries?submissionId=nope`, {
      key: form.apiKey,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(bad.text).toContain('submissionId');

    // Bounded whatever the log's length: the delivery's key is the submission's id.
    await localStore();
    const { dynamodb } = await import('#store/client.ts');
    const { meterDynamoDb } = await import('#test/support/dynamodb-meter.ts');
    const { listDeliveries } = await import('#store/deliveries.ts');
    const { meter, reset } = meterDynamoDb(dynamodb);
    reset();
    const page = await listDeliveries(form.id, { limit: 25, submissionId: second });
    expect(page.deliveries.map((d) => d.submissionId)).toEqual([second]);
    expect(meter.calls).toEqual(['GetItemCommand']);
  });
});
