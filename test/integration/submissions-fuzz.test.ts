import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';
import { expectCountersExact, postAll } from '#test/support/inbox.ts';
import { type Rng, random } from '#test/support/seeded-random.ts';

/** Each API key may make 300 requests a minute: the fuzz stays under it, per team. */
const TEAMS = 2;
const REQUESTS_PER_TEAM = 280;
const PARALLEL = 8;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** A JSON value of any shape, sometimes close to a valid bulk body. */
function jsonValue(rng: Rng, depth = 0): unknown {
  const kind = rng.int(depth > 2 ? 5 : 8);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng.next() < 0.5;
    case 2:
      return rng.pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2, 1000, 1001]);
    case 3:
      return rng.text(rng.int(30));
    case 4:
      return rng.pick(['all', 'unread', 'starred', 'spam', new Date().toISOString(), '2026-13-45']);
    case 5:
      return Array.from({ length: rng.int(5) }, () => jsonValue(rng, depth + 1));
    default: {
      const keys = ['target', 'ids', 'filter', 'asOf', 'read', 'starred', 'isSpam', rng.text(5)];
      return Object.fromEntries(
        Array.from({ length: rng.int(5) }, () => [rng.pick(keys), jsonValue(rng, depth + 1)]),
      );
    }
  }
}

function query(rng: Rng): string {
  const names = ['filter', 'page', 'pageSize', 'around', rng.text(4)];
  const values = () =>
    rng.pick([
      rng.text(rng.int(20)),
      String(rng.int(200) - 50),
      'all',
      'spam',
      '1e3',
      '',
      crypto.randomUUID(),
      '%ZZ',
    ]);
  const pairs = Array.from({ length: rng.int(5) }, () => {
    const name = rng.pick(names);
    return `${encodeURIComponent(name)}=${rng.next() < 0.1 ? values() : encodeURIComponent(values())}`;
  });
  return pairs.length ? `?${pairs.join('&')}` : '';
}

describe('submissions routes under malformed input', () => {
  it(`answer ${TEAMS * REQUESTS_PER_TEAM} generated requests without a 5xx and keep the counters exact`, async () => {
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: TEAMS }, (_, team) => fuzzOneForm(random(SEED + team), statuses)),
    );
    for (const status of statuses.keys()) expect(status).toBeLessThan(500);
    expect(statuses.get(429)).toBeUndefined();
    expect(statuses.get(400)).toBeGreaterThan(0);
    process.stdout.write(`submissions fuzz (seed ${SEED}): ${JSON.stringify([...statuses])}\n`);
  });
});

async function fuzzOneForm(rng: Rng, statuses: Map<number, number>) {
  const form = await newForm('pro');
  const ids = await postAll(
    form,
    Array.from({ length: 6 }, (_, i) => ({ message: `fuzz ${i} ${crypto.randomUUID()}` })),
  );
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < REQUESTS_PER_TEAM) {
        next += 1;
        const kind = rng.int(4);
        const base = `/v1/forms/${form.id}`;
        let response: { status: number };
        if (kind === 0) {
          response = await api('GET', `${base}/submissions${query(rng)}`, { key: form.apiKey });
        } else if (kind === 1) {
          const id = rng.next() < 0.5 ? rng.pick(ids) : encodeURIComponent(rng.text(rng.int(60)));
          const tail = rng.next() < 0.5 ? '' : `/files/${encodeURIComponent(rng.text(3))}`;
          response = await api('GET', `${base}/submissions/${id}${tail}`, { key: form.apiKey });
        } else {
          const body = rng.next() < 0.2 ? rng.text(rng.int(40)) : JSON.stringify(jsonValue(rng));
          response = await api(kind === 2 ? 'PATCH' : 'DELETE', `${base}/submissions`, {
            key: form.apiKey,
            rawBody: body,
            headers: { 'content-type': 'application/json' },
          });
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  await expectCountersExact(form.id);
}
