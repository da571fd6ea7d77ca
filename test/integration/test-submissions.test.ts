import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newTeam } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function rawItem(pk: string, sk: string) {
  const { documents } = await localStore();
  const { Item } = await documents.send(
    new GetCommand({ TableName: stack().tableName, Key: { pk, sk } }),
  );
  return Item;
}

describe('POST /v1/forms/{id}/test-submissions', () => {
  it('stores a sample built from the fields, marked isTest, unread, in the inbox but not counted', async () => {
    const { submissions, usage } = await localStore();
    const team = await newTeam('free');
    const form = await api('POST', '/v1/forms', {
      key: team.apiKey,
      body: { name: 'RSVP', type: 'rsvp' },
    });
    const formId = form.body.id as string;

    const sent = await api('POST', `/v1/forms/${formId}/test-submissions`, {
      key: team.apiKey,
      headers: { 'user-agent': 'integration-test/1' },
    });
    expect(sent.status).toBe(201);
    expect(Object.keys(sent.body)).toEqual(['submissionId']);
    const submissionId = sent.body.submissionId as string;
    expect(submissionId).toMatch(UUID_V7);

    const stored = await submissions.getSubmission(formId, submissionId);
    expect(stored).toEqual({
      id: submissionId,
      formId,
      data: { name: 'Sample answer', email: 'test@example.com', attending: 'Yes', guests: '0' },
      meta: { userAgent: 'integration-test/1', referrer: '' },
      read: false,
      starred: false,
      isSpam: false,
      isTest: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    // What the delivery pipeline and the inbox read: the item's entity, team and folders.
    const item = await rawItem(`FORM#${formId}`, `SUB#${submissionId}`);
    expect(item).toMatchObject({
      entity: 'submission',
      teamId: team.teamId,
      subAllPk: `FORM#${formId}`,
      subUnreadPk: `FORM#${formId}`,
    });
    expect(item).not.toHaveProperty('subSpamPk');
    expect(item).not.toHaveProperty('subStarredPk');
    const { counters } = await localStore();
    const read = await counters.readCounters(formId, { consistent: true });
    expect(read.folders).toMatchObject({ all: 1, unread: 1 });
    expect(read.counted).toBe(0);

    const month = (stored?.createdAt ?? '').slice(0, 7);
    expect(await usage.monthlyUsage(team.teamId, month)).toBe(0);
    const list = await api('GET', '/v1/forms', { key: team.apiKey });
    expect((list.body.forms as { submissionCount: number }[])[0]?.submissionCount).toBe(0);
    // Counters never leak into the form object.
    const full = await api('GET', `/v1/forms/${formId}`, { key: team.apiKey });
    expect(Object.keys(full.body).filter((k) => k.startsWith('count_'))).toEqual([]);
  });

  it('is named apart on the form list and the submission list: all = submissionCount + testCount, a test in spam in neither', async () => {
    const team = await newTeam('pro');
    const form = await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Counted' } });
    const formId = form.body.id as string;
    const key = form.body.key as string;
    for (const n of [1, 2, 3]) {
      const posted = await submit(key, { json: { message: `real ${n}` }, from: freshVisitor() });
      expect(posted.status, posted.text).toBe(200);
    }
    const tests: string[] = [];
    for (let n = 0; n < 3; n++) {
      const sent = await api('POST', `/v1/forms/${formId}/test-submissions`, { key: team.apiKey });
      tests.push(sent.body.submissionId as string);
    }
    const moved = await api('PATCH', `/v1/forms/${formId}/submissions`, {
      key: team.apiKey,
      body: { target: { ids: [tests[0]] }, isSpam: true },
    });
    expect(moved.status, moved.text).toBe(200);

    const listed = await api('GET', '/v1/forms', { key: team.apiKey });
    expect(listed.body.forms).toEqual([
      expect.objectContaining({ submissionCount: 3, testCount: 2, unreadCount: 5 }),
    ]);
    const page = await api('GET', `/v1/forms/${formId}/submissions`, { key: team.apiKey });
    expect(page.body).toMatchObject({
      total: 5,
      submissionCount: 3,
      testCount: 2,
      folderCounts: { all: 5, unread: 5, starred: 0, spam: 1 },
    });
  });

  it('answers any-field forms with a generic sample, and reaches paused forms too', async () => {
    const { submissions } = await localStore();
    const form = await api('POST', '/v1/forms', { body: { name: 'Open', type: 'custom' } });
    const formId = form.body.id as string;
    await api('PATCH', `/v1/forms/${formId}`, { body: { status: 'paused' } });
    const sent = await api('POST', `/v1/forms/${formId}/test-submissions`);
    expect(sent.status).toBe(201);
    const stored = await submissions.getSubmission(formId, sent.body.submissionId as string);
    expect(stored?.data).toEqual({
      name: 'Test Submitter',
      email: 'test@example.com',
      message: 'This is a test submission sent from the API.',
    });
  });

  it("answers 404 for another team's form and for an unknown id, storing nothing", async () => {
    const form = await api('POST', '/v1/forms', { body: { name: 'Private' } });
    const other = await newTeam('pro');
    const foreign = await api('POST', `/v1/forms/${form.body.id}/test-submissions`, {
      key: other.apiKey,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ ok: false, error: 'not_found' });
    const unknown = await api(
      'POST',
      '/v1/forms/00000000-0000-4000-8000-000000000000/test-submissions',
    );
    expect(unknown.status).toBe(404);
    const { counters } = await localStore();
    const read = await counters.readCounters(form.body.id as string, { consistent: true });
    expect(read.folders.all).toBe(0);
  });
});
