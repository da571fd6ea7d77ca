import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { emailHash, keyedHashOf } from '#domain/email-index.ts';
import { asMember, signedIn, teamWithOwner } from '#test/support/accounts.ts';
import { admin } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import type { TestForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * The email index (docs/privacy.md#how-a-person-is-found) as erase and
 * export use it: which address an entry is written under, and which
 * entries an erase leaves.
 */

const unique = () => crypto.randomUUID().slice(0, 8);
type Team = Awaited<ReturnType<typeof teamWithOwner>>;

async function teamForm(team: Team): Promise<TestForm> {
  const created = await api('POST', '/v1/forms', {
    key: team.apiKey,
    body: { name: `Form ${unique()}`, type: 'custom' },
  });
  expect(created.status, created.text).toBe(201);
  return {
    id: created.body.id as string,
    key: created.body.key as string,
    teamId: team.teamId,
    apiKey: team.apiKey,
  };
}

async function post(form: TestForm, answers: Record<string, string>): Promise<string> {
  const response = await submit(form.key, { json: answers, from: freshVisitor() });
  expect(response.status, response.text).toBe(200);
  return response.body?.submissionId as string;
}

const exported = async (team: Team, email: string) => {
  const response = await api<{ submissions: { id: string }[] }>(
    'GET',
    `/v1/privacy/submissions?email=${encodeURIComponent(email)}`,
    { key: team.apiKey },
  );
  expect(response.status, response.text).toBe(200);
  return response.body.submissions.map((s) => s.id);
};

const erase = (team: Team, email: string) =>
  api<{ count: number }>('POST', '/v1/privacy/erasures', { key: team.apiKey, body: { email } });

/** The index entries under one hash: `[formId, submissionId]` each. */
async function entriesUnder(teamId: string, hash: string): Promise<string[][]> {
  const { documents } = await localStore();
  const { Items = [] } = await documents.send(
    new QueryCommand({
      TableName: stack().tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `TEAM#${teamId}#EMAIL#${hash}` },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => [String(item.formId), String(item.submissionId)]);
}

const secret = () => process.env.KEYED_HASH_SECRET!;

describe('an address with an invisible character (docs/privacy.md#invisible-characters)', () => {
  const INVISIBLE = {
    'zero-width space': '\u200B',
    'soft hyphen': '\u00AD',
    'word joiner': '\u2060',
    'left-to-right mark': '\u200E',
  };

  it('is indexed as the plain address: export and erase of the plain address find it', async () => {
    const team = await teamWithOwner('pro');
    const form = await teamForm(team);
    const plain = `ada-${unique()}@example.com`;
    const ids: string[] = [];
    for (const [i, char] of Object.values(INVISIBLE).entries()) {
      // At the end, then at the start, by turns; in an answer, and as _replyto.
      const typed = i % 2 === 0 ? `${plain}${char}` : `${char}${plain}`;
      ids.push(await post(form, { email: typed, message: `post ${i}` }));
      ids.push(await post(form, { _replyto: typed, message: `reply ${i}` }));
    }
    expect((await exported(team, plain)).sort()).toEqual([...ids].sort());
    const erased = await erase(team, plain);
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.count).toBe(ids.length);
    expect(await exported(team, plain)).toEqual([]);
  });

  it('privacy reindex moves the entries an older rule wrote under another hash', async () => {
    const team = await teamWithOwner('pro');
    const form = await teamForm(team);
    const plain = `old-${unique()}@example.com`;
    const typed = `${plain}\u200B`;
    const id = await post(form, { email: typed });
    // As an older version indexed it: under the hash of the address with its invisible character.
    const { documents } = await localStore();
    const folded = emailHash(secret(), team.teamId, plain);
    const legacy = keyedHashOf(secret(), team.teamId, typed);
    const sk = `HELD#${form.id}#${id}`;
    await documents.send(
      new DeleteCommand({
        TableName: stack().tableName,
        Key: { pk: `TEAM#${team.teamId}#EMAIL#${folded}`, sk },
      }),
    );
    await documents.send(
      new PutCommand({
        TableName: stack().tableName,
        Item: {
          pk: `TEAM#${team.teamId}#EMAIL#${legacy}`,
          sk,
          entity: 'emailIndex',
          formId: form.id,
          submissionId: id,
        },
      }),
    );
    expect(await exported(team, plain)).toEqual([]);

    const run = await admin('privacy', 'reindex', '--team', team.teamId);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ submissions: 1, entries: 1, removed: 1 });
    expect(await exported(team, plain)).toEqual([id]);
    expect(await entriesUnder(team.teamId, legacy)).toEqual([]);
    expect(await entriesUnder(team.teamId, folded)).toEqual([[form.id, id]]);
  });
});

describe('what an erase removes from the index (docs/privacy.md#erase-by-email)', () => {
  it('erasing the email answer drops the _replyto entry of the same submission too', async () => {
    const team = await teamWithOwner('pro');
    const form = await teamForm(team);
    const ada = `ada-${unique()}@example.com`;
    const bob = `bob-${unique()}@example.com`;
    const id = await post(form, { _replyto: ada, email: bob, message: 'both of us' });
    const adaHash = emailHash(secret(), team.teamId, ada);
    expect(await entriesUnder(team.teamId, adaHash)).toEqual([[form.id, id]]);

    const erased = await erase(team, bob);
    expect(erased.body).toMatchObject({ count: 1 });
    // Nothing names the erased submission under either address.
    expect(await entriesUnder(team.teamId, emailHash(secret(), team.teamId, bob))).toEqual([]);
    expect(await entriesUnder(team.teamId, adaHash)).toEqual([]);
  });
});

describe('the export by email (docs/privacy.md#export-by-email)', () => {
  it('holds the _replyto and _subject a submission was found by', async () => {
    const team = await teamWithOwner('pro');
    const form = await teamForm(team);
    const ada = `ada-${unique()}@example.com`;
    const id = await post(form, { _replyto: ada, _subject: 'From Ada', message: 'call me' });
    const response = await api<{ submissions: Record<string, unknown>[] }>(
      'GET',
      `/v1/privacy/submissions?email=${encodeURIComponent(ada)}`,
      { key: team.apiKey },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.submissions).toHaveLength(1);
    expect(response.body.submissions[0]).toMatchObject({
      id,
      data: { message: 'call me' },
      replyTo: ada,
      subject: 'From Ada',
    });
  });

  it('a session must prove it comes from the dashboard: a cross-site GET is 403 csrf and records nothing', async () => {
    const team = await teamWithOwner('pro');
    const path = `/v1/privacy/submissions?email=${encodeURIComponent(`x-${unique()}@example.com`)}`;
    await expectOriginProofOnRead(team, path, 'privacy.exported');
  });

  it('the CSV export too: a cross-site GET with the cookie is 403 csrf and records no submissions.exported', async () => {
    const team = await teamWithOwner('pro');
    const created = await api<{ id: string }>('POST', '/v1/forms', {
      key: team.apiKey,
      body: { name: `Form ${unique()}`, type: 'custom' },
    });
    const path = `/v1/forms/${created.body.id}/export.csv?header=labels`;
    await expectOriginProofOnRead(team, path, 'submissions.exported');
  });
});

/**
 * A GET that records `action` in the member's name: refused (403 csrf, nothing recorded) for
 * what a link or an image on another site sends with the owner's cookie; the dashboard's own
 * request (same origin) and an API key from anywhere still go through, each recorded once.
 */
async function expectOriginProofOnRead(
  team: Awaited<ReturnType<typeof teamWithOwner>>,
  path: string,
  action: string,
) {
  const owner = await signedIn(team.email, team.teamId);
  const recorded = async () => {
    const trail = await api<{ events: { action: string }[] }>('GET', '/v1/team/audit', {
      key: team.apiKey,
    });
    return trail.body.events.filter((e) => e.action === action).length;
  };
  for (const headers of [
    { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } as Record<string, string>,
    { 'sec-fetch-site': 'same-site' },
    { 'sec-fetch-site': '', origin: '' },
  ]) {
    const refused = await asMember(owner, 'GET', path, { headers });
    expect([refused.status, refused.body?.error], JSON.stringify(headers)).toEqual([403, 'csrf']);
  }
  expect(await recorded()).toBe(0);
  expect((await asMember(owner, 'GET', path)).status).toBe(200);
  const byKey = await api('GET', path, {
    key: team.apiKey,
    headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
  });
  expect(byKey.status, byKey.text).toBe(200);
  expect(await recorded()).toBe(2);
}
