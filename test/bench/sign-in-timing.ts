/**
 * `npm run bench:sign-in [-- --addresses N]`: how long a wrong sign-in code
 * takes for a member's address (with a sign-in pending) and for an address
 * that is nobody's, over real HTTP to an in-process local stack. A
 * difference would tell a guesser who is a member
 * ([API guide](../../docs/people.md#email-sign-in)). N members are
 * invited and each asks for a sign-in (its code pending: an invitation
 * carries none, docs/people.md#invitations), then 4 wrong codes each for them and
 * for N unknown addresses, interleaved, each from a loopback address of its
 * own (the per-IP limits are not what is measured). Prints the medians and
 * p90s and a JSON line.
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { median, withBenchStack } from './bench-stack.ts';

const { values } = parseArgs({ options: { addresses: { type: 'string', default: '25' } } });
const ADDRESSES = Number(values.addresses);
const GUESSES = 4;

let nextAddress = 0;
function freshIp(): string {
  nextAddress += 1;
  return `127.9.${Math.floor(nextAddress / 250) % 250}.${(nextAddress % 250) + 1}`;
}

function post(
  baseUrl: string,
  path: string,
  body: unknown,
): Promise<{ status: number; ms: number }> {
  const bytes = Buffer.from(JSON.stringify(body));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, baseUrl),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) },
        localAddress: freshIp(),
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

const p90 = (samples: number[]) =>
  [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.9)]!;
const round = (ms: number) => Number(ms.toFixed(1));

await withBenchStack(async ({ stack, api }) => {
  const run = crypto.randomUUID().slice(0, 6);
  const members = Array.from(
    { length: ADDRESSES },
    (_, i) => `bench-member-${run}-${i}@example.com`,
  );
  const strangers = Array.from(
    { length: ADDRESSES },
    (_, i) => `bench-nobody-${run}-${i}@example.com`,
  );
  for (const email of members) {
    const invited = await api('POST', '/v1/team/members', { email });
    if (invited.status !== 201) throw new Error(`invite answered ${invited.status}`);
  }
  // The strangers are asked for too: an attacker asks before guessing.
  for (const email of [...members, ...strangers]) {
    await post(stack.info.baseUrl, '/v1/auth/sign-in', { email });
  }
  // Each member's sign-in email (and pending code) is written by the mailer worker.
  for (let tries = 0; tries < 200; tries++) {
    const store = (await (await fetch(new URL('/store', stack.info.mailUrl))).json()) as {
      emails: { subject: string; destination: { to: string[] } }[];
    };
    const mailed = new Set(
      store.emails
        .filter((e) => e.subject.startsWith('Your sign-in code'))
        .flatMap((e) => e.destination.to),
    );
    if (members.every((m) => mailed.has(m))) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Warm the route.
  for (let i = 0; i < 10; i++) {
    await post(stack.info.baseUrl, '/v1/auth/verify', {
      email: `warm-${i}@example.com`,
      code: '000000',
    });
  }
  const timings = { member: [] as number[], unknown: [] as number[] };
  for (let guess = 0; guess < GUESSES; guess++) {
    for (let i = 0; i < ADDRESSES; i++) {
      const code = String(100000 + guess);
      const member = await post(stack.info.baseUrl, '/v1/auth/verify', { email: members[i], code });
      const unknown = await post(stack.info.baseUrl, '/v1/auth/verify', {
        email: strangers[i],
        code,
      });
      if (member.status !== 401 || unknown.status !== 401) {
        throw new Error(`expected 401s, got ${member.status} and ${unknown.status}`);
      }
      timings.member.push(member.ms);
      timings.unknown.push(unknown.ms);
    }
  }
  const figures = {
    samples: timings.member.length,
    memberMedianMs: round(median(timings.member)),
    memberP90Ms: round(p90(timings.member)),
    unknownMedianMs: round(median(timings.unknown)),
    unknownP90Ms: round(p90(timings.unknown)),
  };
  console.log('wrong code        median   p90');
  console.log(`member (pending)  ${figures.memberMedianMs} ms   ${figures.memberP90Ms} ms`);
  console.log(`unknown address   ${figures.unknownMedianMs} ms   ${figures.unknownP90Ms} ms`);
  console.log(JSON.stringify(figures));
});
