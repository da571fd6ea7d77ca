import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, inject, it, vi } from 'vitest';
import {
  authPost,
  cookieOf,
  invitationsTo,
  invitationTo,
  requestSignIn,
  signInEmailsTo,
  signInEmailTo,
  teamWithOwner,
  verify,
} from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { eventually, untilQueueDrained } from '#test/support/delivery.ts';
import { meterDynamoDb } from '#test/support/dynamodb-meter.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor } from '#test/support/submit.ts';

// Sign-in emails travel the local queue and SES emulator, shared with the whole suite.
vi.setConfig({ testTimeout: 90_000 });

type AuditRow = {
  action: string;
  actor: Record<string, unknown>;
  target: string | null;
  details: Record<string, unknown>;
  ip: string | null;
};

const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');

/**
 * The per-address window is a link's lifetime (15 minutes, fixed windows):
 * a test that fills it starts with time to spare before it turns, so its
 * requests all land in one window.
 */
async function awayFromAddressWindowEdge() {
  const size = 15 * 60_000;
  const left = size - (Date.now() % size);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

async function auditOf(apiKey: string): Promise<AuditRow[]> {
  const trail = await api('GET', '/v1/team/audit?limit=100', { key: apiKey });
  return trail.body.events as AuditRow[];
}

describe('a person who can read the mailbox always gets in', () => {
  it("an outsider's 20 requests and 5 wrong codes from one network leave the member (another network) to ask and sign in by the link", async () => {
    await awayFromAddressWindowEdge();
    const owner = await teamWithOwner();
    const outsider = freshVisitor();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await authPost('/v1/auth/sign-in', { email: owner.email }, outsider)).status);
    }
    expect(
      statuses.filter((s) => s === 202),
      'an outsider has 5 an hour',
    ).toHaveLength(5);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const last = await signInEmailTo(owner.email, 4);
    for (let i = 0; i < 5; i++) {
      const guess = await verify({ email: owner.email, code: wrongFor(last.code) }, outsider);
      expect(guess.status).toBe(401);
    }

    const seen = await signInEmailsTo(owner.email);
    const asked = await authPost('/v1/auth/sign-in', { email: owner.email }, freshVisitor());
    expect(asked.status, "the outsider's requests are not the member's").toBe(202);
    const mine = await signInEmailTo(owner.email, seen);
    const byCode = await verify({ email: owner.email, code: mine.code });
    expect(byCode.status, 'the hour’s code tries are used up: no code works').toBe(401);
    const byLink = await verify({ token: mine.token });
    expect(byLink.status, byLink.text).toBe(200);
    expect(byLink.body).toMatchObject({ teamId: owner.teamId });
  });

  it('wrong codes and newer emails leave an earlier link working', async () => {
    const owner = await teamWithOwner();
    const earlier = await requestSignIn(owner.email);
    const newer = await requestSignIn(owner.email);
    expect(newer.token).not.toBe(earlier.token);
    for (let i = 0; i < 5; i++) {
      await verify({ email: owner.email, code: wrongFor(newer.code) });
    }
    const signedIn = await verify({ token: earlier.token });
    expect(signedIn.status, signedIn.text).toBe(200);
    cookieOf(signedIn);
    // Each link works once; the newer one is still there too.
    expect((await verify({ token: earlier.token })).status).toBe(401);
    expect((await verify({ token: newer.token })).status).toBe(200);
  });

  it('a newer email replaces the code, not the link; a code used ends its own link', async () => {
    const owner = await teamWithOwner();
    const earlier = await requestSignIn(owner.email);
    const newer = await requestSignIn(owner.email);
    if (earlier.code !== newer.code) {
      expect((await verify({ email: owner.email, code: earlier.code })).status).toBe(401);
    }
    expect((await verify({ email: owner.email, code: newer.code })).status).toBe(200);
    expect((await verify({ token: newer.token })).status, 'its link went with it').toBe(401);
    expect((await verify({ token: earlier.token })).status).toBe(200);
  });

  it('the link and the code of one email used at once start exactly one session', async () => {
    const owner = await teamWithOwner();
    const { token, code } = await requestSignIn(owner.email);
    const results = await Promise.all([
      verify({ token }),
      verify({ email: owner.email, code }),
      verify({ token }),
      verify({ email: owner.email, code }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('when the address has had its 10 emails of the window from many networks, a refused member still holds a live link', async () => {
    await awayFromAddressWindowEdge();
    const owner = await teamWithOwner();
    const statuses: number[] = [];
    for (const network of [freshVisitor(), freshVisitor(), freshVisitor()]) {
      for (let i = 0; i < 5; i++) {
        statuses.push((await authPost('/v1/auth/sign-in', { email: owner.email }, network)).status);
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 202)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    const refused = await authPost('/v1/auth/sign-in', { email: owner.email }, freshVisitor());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const newest = await signInEmailTo(owner.email, 9);
    expect((await verify({ token: newest.token })).status).toBe(200);
  });
});

describe('invitations', () => {
  it('count toward the address’s sign-in emails: 8 invite/remove cycles send 5 invitations; wrong codes past the hour’s tries leave an invitation’s link working', async () => {
    const owner = await teamWithOwner();
    const email = `cycled-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const statuses: number[] = [];
    let wrongGuesses = 0;
    for (let cycle = 0; cycle < 8; cycle++) {
      const seen = (await invitationsTo(email)).length;
      const invited = await api('POST', '/v1/team/members', { key: owner.apiKey, body: { email } });
      statuses.push(invited.status);
      if (invited.status !== 201) continue;
      // An invitation carries a link, no code (docs/people.md#invitations).
      const mail = await invitationTo(email, seen);
      if (cycle < 3) {
        // 6 wrong codes over three invitations, past the 5 tries of the hour: they
        // stop codes, not the invitation's link (used below).
        for (let i = 0; i < 2; i++) {
          const guess = await verify({ email, code: wrongFor('000000') });
          expect(guess.status).toBe(401);
          wrongGuesses += 1;
        }
      } else if (cycle === 3) {
        expect((await verify({ token: mail.token })).status).toBe(200);
      }
      const removed = await api('DELETE', `/v1/team/members/${invited.body.userId}`, {
        key: owner.apiKey,
      });
      expect(removed.status).toBe(200);
    }
    expect(wrongGuesses).toBe(6);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    // Every email asked for is sent (or refused) before counting them.
    await untilQueueDrained('signIns');
    expect(await invitationsTo(email)).toHaveLength(5);
    expect(await signInEmailsTo(email)).toBe(0);
  });
});

describe('failed verifies in the audit trail', () => {
  it('a wrong code, a code past the tries, a link used again and an ended link are recorded in each team of the address, never the secret', async () => {
    const first = await teamWithOwner();
    const second = await teamWithOwner();
    const invited = await api('POST', '/v1/team/members', {
      key: second.apiKey,
      body: { email: first.email },
    });
    expect(invited.status).toBe(201);
    // The invitation carries no code: the address, now in two teams, asks for a sign-in.
    await invitationTo(first.email);
    const mail = await requestSignIn(first.email);
    for (let i = 0; i < 6; i++) await verify({ email: first.email, code: wrongFor(mail.code) });
    expect((await verify({ token: mail.token, teamId: first.teamId })).status).toBe(200);
    expect((await verify({ token: mail.token })).status).toBe(401);

    // An ended link, stored as the mailer stores one 16 minutes ago.
    await localStore();
    const { issueSignIn } = await import('#domain/sign-in.ts');
    const { putSignIn } = await import('#store/sign-ins.ts');
    const old = issueSignIn(first.email);
    await putSignIn(first.email, old, new Date(Date.now() - 16 * 60_000));
    expect((await verify({ token: old.token })).status).toBe(401);

    const expected = [
      ...Array.from({ length: 5 }, () => ['auth.code_failed', 'wrong_code']),
      ['auth.code_failed', 'too_many_codes'],
      ['auth.signed_in', undefined],
      ['auth.link_failed', 'link_used'],
      ['auth.link_failed', 'link_expired'],
    ];
    for (const team of [first, second]) {
      const failures = await eventually(
        async () => (await auditOf(team.apiKey)).filter((e) => e.action.startsWith('auth.')),
        (events) => events.filter((e) => e.action !== 'auth.signed_in').length >= 8,
      );
      const memberId = team === first ? first.userId : invited.body.userId;
      const ownFailures = failures.filter((e) => e.action !== 'auth.signed_in');
      expect(ownFailures).toHaveLength(8);
      for (const event of ownFailures) {
        expect(event).toMatchObject({
          actor: { kind: 'anonymous', email: first.email },
          target: memberId,
          ip: expect.any(String),
        });
      }
      const text = JSON.stringify(failures);
      expect(text).not.toContain(mail.code);
      expect(text).not.toContain(mail.token);
      expect(text).not.toContain(old.token);
      if (team === first) {
        expect(failures.toReversed().map((e) => [e.action, e.details.reason])).toEqual(expected);
      }
    }
  });
});

describe('a wrong code takes the same work for a member as for nobody', () => {
  it('the verify route makes the same DynamoDB calls for a member with a code pending and for an address that is nobody’s', async () => {
    const info = inject('localStack');
    await localStore();
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_SQS: info.endpoints.sqs,
      SIGN_IN_QUEUE_URL: info.queues.signIns?.url,
    });
    const owner = await teamWithOwner();
    await requestSignIn(owner.email);
    const stranger = `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;
    expect((await authPost('/v1/auth/sign-in', { email: stranger })).status).toBe(202);

    const { dynamodb } = await import('#store/client.ts');
    const { handler } = await import('#http/auth/verify.ts');
    // This process's own client: the local stack's workers, in their own process, are not counted.
    const { meter, reset } = meterDynamoDb(dynamodb);
    const wrongCode = async (email: string) => {
      reset();
      const answer = await handler(
        {
          httpMethod: 'POST',
          path: '/v1/auth/verify',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, code: '000000' }),
          isBase64Encoded: false,
          requestContext: {
            requestId: crypto.randomUUID(),
            identity: { sourceIp: freshVisitor() },
          },
        } as unknown as APIGatewayProxyEvent,
        { getRemainingTimeInMillis: () => 5000 } as Context,
      );
      return { status: answer.statusCode, calls: [...meter.calls], rounds: meter.rounds };
    };
    const member = await wrongCode(owner.email);
    const nobody = await wrongCode(stranger);
    expect(member.status).toBe(401);
    expect(nobody.status).toBe(401);
    expect(member.calls).toEqual(nobody.calls);
    expect(member.rounds).toBe(nobody.rounds);
    process.stdout.write(
      `wrong code: ${member.calls.join(', ')} (${member.rounds} round trips) for both\n`,
    );
  });
});
