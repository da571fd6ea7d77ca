import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '#routes';
import {
  asMember,
  requestSignIn,
  setCookieOf,
  signedIn,
  teamWithOwner,
  verify,
} from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, inOneMinute, submit } from '#test/support/submit.ts';

// Sign-in emails travel the local queue and SES emulator, shared with the whole suite.
vi.setConfig({ testTimeout: 90_000 });

const LONG_ID = 'a'.repeat(1018);
/** A well-shaped value of each path id, so only the one under test is wrong. */
const SHAPED: Record<string, string> = {
  id: crypto.randomUUID(),
  submissionId: crypto.randomUUID(),
  deliveryId: crypto.randomUUID(),
  userId: crypto.randomUUID(),
  keyId: 'abcdefghij012345',
  index: '0',
};
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('path ids of the wrong shape name nothing', () => {
  const withIds = routes.filter((r) => r.auth === 'apiKey' && r.path.includes('{'));
  const cases = withIds.flatMap((route) =>
    [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => [route.method, route.path, m[1]!] as const),
  );

  it('covers every management route with a path id', () => {
    expect(cases.map(([, , name]) => name)).toEqual(
      expect.arrayContaining(['id', 'submissionId', 'deliveryId', 'userId', 'keyId', 'index']),
    );
  });

  it.each(cases)(
    '%s %s with a 1,018-character {%s}: 404 not_found, not 500',
    async (method, path, name) => {
      const url = path.replace(/\{(\w+)\}/g, (_, each: string) =>
        each === name ? LONG_ID : SHAPED[each]!,
      );
      const body = ['GET', 'HEAD', 'DELETE'].includes(method) ? undefined : {};
      const response = await api(method, url, { body });
      expect(response.status, response.text).toBe(404);
      expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
    },
  );
});

describe('JSON answers are nosniff', () => {
  it.each([
    ['a 200', '/v1/forms', () => stack().apiKeys.pro],
    ['a 401', '/v1/forms', () => null],
    ['a 404', `/v1/forms/${crypto.randomUUID()}`, () => stack().apiKeys.pro],
  ])('%s of /v1 says X-Content-Type-Options: nosniff', async (_what, path, key) => {
    const response = await api('GET', path, { key: key() });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the session cookie', () => {
  it('lives at most the 7 idle days, and is sent again with 7 more when use slides the session', async () => {
    const owner = await teamWithOwner();
    const cookie = await signedIn(owner.email);
    const fresh = await asMember(cookie, 'GET', '/v1/auth/session');
    expect(fresh.headers.get('set-cookie'), 'a request within the hour renews nothing').toBeNull();

    // Last used two hours ago: this request slides the session, and its cookie with it.
    const secret = cookie.split('.')[2]!;
    const { documents } = await localStore();
    await documents.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: {
          pk: `TEAM#${owner.teamId}`,
          sk: `SESSION#${owner.userId}#${createHash('sha256').update(secret).digest('hex')}`,
        },
        UpdateExpression: 'SET lastSeenAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - 2 * 3_600_000).toISOString() },
      }),
    );
    const slid = await asMember(cookie, 'GET', '/v1/auth/session');
    expect(slid.status).toBe(200);
    const renewed = slid.headers.get('set-cookie') ?? '';
    expect(renewed).toContain(`${cookie}; Path=/; HttpOnly; SameSite=Lax; Max-Age=`);
    const maxAge = Number(/Max-Age=(\d+)/.exec(renewed)?.[1]);
    expect(maxAge).toBeGreaterThan(7 * 86_400 - 60);
    expect(maxAge).toBeLessThanOrEqual(7 * 86_400);
  });

  it('the cookie of a sign-in lives 7 days, not 30', async () => {
    const owner = await teamWithOwner();
    const { code } = await requestSignIn(owner.email);
    const setCookie = setCookieOf(await verify({ email: owner.email, code }));
    expect(setCookie).toMatch(/Max-Age=604800(;|$)/);
  });
});

describe('the views beacon counts a visitor at most 10 times a minute per form', () => {
  it('30 beacons from one visitor count 10; another visitor still counts', async () => {
    // The limit counts in fixed one-minute windows: the loop (about a second) within one.
    const { form, visitor, statuses } = await inOneMinute(async () => {
      const created = await api('POST', '/v1/forms', { body: { name: 'Viewed' } });
      const form = { id: created.body.id as string, key: created.body.key as string };
      const visitor = freshVisitor();
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const view = await submit(form.key, {
          path: `/f/${form.key}/views`,
          headers: { 'user-agent': BROWSER },
          from: visitor,
        });
        statuses.push(view.status);
      }
      return { form, visitor, statuses };
    });
    expect(statuses).toEqual(Array(30).fill(204));
    const views = async () =>
      ((await api('GET', `/v1/forms/${form.id}/summary`)).body.totals as { views: number }).views;
    expect(await views(), 'views counted from one visitor in a loop').toBe(10);

    const other = await submit(form.key, {
      path: `/f/${form.key}/views`,
      headers: { 'user-agent': BROWSER },
      from: freshVisitor(),
    });
    expect(other.status).toBe(204);
    // The same address with another browser is another visitor too.
    await submit(form.key, {
      path: `/f/${form.key}/views`,
      headers: { 'user-agent': `${BROWSER} Other` },
      from: visitor,
    });
    expect(await views()).toBe(12);
  });
});
