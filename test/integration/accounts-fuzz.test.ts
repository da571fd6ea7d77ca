import { describe, expect, it } from 'vitest';
import { authPost, teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { type Rng, random } from '#test/support/seeded-random.ts';

/** Under the API key's 300 requests a minute. */
const REQUESTS = 260;
const PARALLEL = 8;
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

const LONE_SURROGATE = 'a\ud800b';

function jsonValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 6 : 8)) {
    case 0:
      return null;
    case 1:
      return rng.next() < 0.5;
    case 2:
      return rng.pick([0, -1, 1.5, 1e308, 123456, Number.MAX_SAFE_INTEGER + 2]);
    case 3:
      return rng.text(rng.int(300));
    case 4:
      return rng.pick([
        'owner',
        'member',
        'admin',
        'ada@example.com',
        ` ADA@Example.com `,
        'a@b',
        `${'x'.repeat(250)}@example.com`,
        LONE_SURROGATE,
        '123456',
        'A'.repeat(43),
        crypto.randomUUID(),
      ]);
    case 5:
      return `${rng.text(rng.int(10))}@${rng.text(rng.int(10))}.test`;
    case 6:
      return Array.from({ length: rng.int(4) }, () => jsonValue(rng, depth + 1));
    default: {
      const keys = ['email', 'name', 'role', 'token', 'code', 'teamId', rng.text(4)];
      return Object.fromEntries(
        Array.from({ length: rng.int(5) }, () => [rng.pick(keys), jsonValue(rng, depth + 1)]),
      );
    }
  }
}

const rawBody = (rng: Rng) =>
  rng.next() < 0.15 ? rng.text(rng.int(40)) : JSON.stringify(jsonValue(rng));

describe('the accounts routes under malformed input', () => {
  it(`answer ${REQUESTS} generated requests without a 5xx`, async () => {
    const rng = random(SEED);
    const owner = await teamWithOwner();
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < REQUESTS) {
          next += 1;
          const kind = rng.int(7);
          let status: number;
          if (kind === 0) {
            status = (await authPost('/v1/auth/sign-in', jsonValue(rng))).status;
          } else if (kind === 1) {
            status = (await authPost('/v1/auth/verify', jsonValue(rng))).status;
          } else {
            // A path cannot carry a lone surrogate; its bytes as UTF-8 would be %ED%A0%80.
            const segment = rng.pick([
              crypto.randomUUID(),
              encodeURIComponent(rng.text(rng.int(40))),
              '%ED%A0%80',
              '%ZZ',
              '0'.repeat(16),
            ]);
            const [method, path] = rng.pick([
              ['POST', '/v1/team/members'],
              ['PATCH', `/v1/team/members/${segment}`],
              ['DELETE', `/v1/team/members/${segment}`],
              ['POST', '/v1/team/api-keys'],
              ['DELETE', `/v1/team/api-keys/${segment}`],
              [
                'GET',
                `/v1/team/audit?cursor=${segment}&limit=${rng.pick(['0', '1', '101', 'x', '50'])}`,
              ],
              ['POST', '/v1/auth/session/team'],
            ] as const);
            const response = await api(method, path, {
              key: owner.apiKey,
              rawBody: method === 'GET' || method === 'DELETE' ? undefined : rawBody(rng),
              headers: { 'content-type': 'application/json' },
            });
            status = response.status;
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    for (const status of statuses.keys()) expect(status).toBeLessThan(500);
    expect(statuses.get(400)).toBeGreaterThan(0);
    process.stdout.write(`accounts fuzz (seed ${SEED}): ${JSON.stringify([...statuses])}\n`);
  });
});
