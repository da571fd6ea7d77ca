import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * What an erase by email (docs/privacy.md#erase-by-email) must not leave
 * behind: records kept beside a submission that name its sender.
 */

// Stream and queue work is shared with the whole suite: waits may be long under its load.
vi.setConfig({ testTimeout: 120_000 });

const unique = () => crypto.randomUUID().slice(0, 8);

const erase = (form: TestForm, email: string) =>
  api<{ count: number }>('POST', '/v1/privacy/erasures', {
    key: form.apiKey,
    body: { email },
  });

describe('the Idempotency-Key record of an erased submission', () => {
  it('no longer holds the redirect Location naming the address; a retry stores nothing and redirects nowhere', async () => {
    const form = await newForm('pro');
    const ada = `ada-${unique()}@example.com`;
    const key = crypto.randomUUID();
    const site = 'https://www.example.com';
    const answers = {
      email: ada,
      message: 'keep me posted',
      // The site's own thank-you page, told who signed up: the address is in the query.
      _redirect: `${site}/thanks?email=${encodeURIComponent(ada)}`,
    };
    const send = () =>
      submit(form.key, {
        json: answers,
        from: freshVisitor(),
        headers: { 'idempotency-key': key, accept: 'text/html', origin: site },
      });
    const first = await send();
    expect([first.status, first.headers.location]).toEqual([303, answers._redirect]);

    const { documents } = await localStore();
    const record = async () =>
      (
        await documents.send(
          new GetCommand({
            TableName: stack().tableName,
            Key: {
              pk: `FORM#${form.id}`,
              sk: `IDEM#${createHash('sha256').update(key).digest('hex')}`,
            },
            ConsistentRead: true,
          }),
        )
      ).Item;
    expect((await record())?.location).toBe(answers._redirect);

    const erased = await erase(form, ada);
    expect(erased.body).toMatchObject({ count: 1 });
    const kept = JSON.stringify((await record()) ?? {});
    expect(kept).not.toContain(encodeURIComponent(ada));
    expect(kept.toLowerCase()).not.toContain(ada.split('@')[0]);

    // A retry within the window stores nothing again, and its answer names no address.
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers.location).toBeUndefined();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).not.toContain(ada.split('@')[0]);
    expect(await storedItems(form.id)).toHaveLength(0);
  });
});
