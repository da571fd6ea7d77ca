import { describe, expect, it } from 'vitest';
import {
  CONFIRM_OUTCOME_STATUS,
  confirmExpiresAt,
  confirmToken,
  emailFieldSettingIssues,
  MAX_CONFIRM_TOKEN_LENGTH,
  readConfirmToken,
} from '#domain/confirmation.ts';
import { confirmationAddress, confirmationEmail } from '#domain/confirmation-email.ts';
import { confirmedAt, isPending, pendingConfirmation } from '#domain/confirmation-state.ts';
import { matchesPattern } from '#domain/event-filter.ts';
import { defaultSettings } from '#domain/form-defaults.ts';
import type { FieldDefinition, FormRecord } from '#domain/form-model.ts';
import { applyFormUpdate, parseFormUpdate } from '#domain/form-update.ts';
import {
  addCounterDeltas,
  countsAsSubmission,
  foldersOf,
  noDeltas,
} from '#domain/submission-folders.ts';
import { countersOf } from '#domain/summary-counters.ts';
import {
  CONFIRMED_SUBMISSION_PATTERN,
  INSERTED_PENDING_PATTERN,
  SCAN_SETTLED_PATTERN,
} from '#store/schema.ts';

const SECRET = 's'.repeat(64);
const NOW = new Date('2026-11-28T18:00:00Z');
const LINK = {
  teamId: 'team_1',
  formId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  submissionId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c',
  expiresAt: Math.floor(NOW.getTime() / 1000) + 3600,
};

describe('the confirmation link’s token', () => {
  it('reads back what it names while it works, and says expired after (still naming it)', () => {
    const token = confirmToken(SECRET, LINK);
    expect(token.length).toBeLessThan(MAX_CONFIRM_TOKEN_LENGTH);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(readConfirmToken(SECRET, token, NOW)).toEqual({ status: 'valid', link: LINK });
    const at = new Date(LINK.expiresAt * 1000);
    expect(readConfirmToken(SECRET, token, at)).toEqual({ status: 'expired', link: LINK });
  });

  it('is forged when tampered with, signed by another secret, malformed or too long', () => {
    const token = confirmToken(SECRET, LINK);
    const [payload, signature] = token.split('.') as [string, string];
    const otherPayload = Buffer.from(
      Buffer.from(payload, 'base64url').toString().replace('team_1', 'team_2'),
    ).toString('base64url');
    const forged = [
      `${otherPayload}.${signature}`,
      `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      confirmToken('t'.repeat(64), LINK),
      '',
      'abc',
      `${token}.more`,
      `${payload}.`,
      'x'.repeat(MAX_CONFIRM_TOKEN_LENGTH + 1),
    ];
    for (const each of forged) {
      expect(readConfirmToken(SECRET, each, NOW), each).toEqual({ status: 'forged' });
    }
  });

  it('refuses a secret too short and an id it could not carry', () => {
    expect(() => confirmToken('short', LINK)).toThrow(/at least/);
    expect(() => confirmToken(SECRET, { ...LINK, formId: 'a.b' })).toThrow();
  });

  it('expires confirmLinkSeconds after the post', () => {
    expect(confirmExpiresAt('2026-11-28T18:00:00.000Z', 172_800)).toBe(
      Date.parse('2026-11-30T18:00:00.000Z'),
    );
  });

  it('answers each outcome with the contract’s status', () => {
    expect(CONFIRM_OUTCOME_STATUS).toEqual({
      confirmed: 200,
      already_confirmed: 200,
      expired: 410,
      not_valid: 404,
      full: 409,
      closed: 409,
      already_answered: 409,
    });
  });
});

describe('the states of a submission that waits for confirmation', () => {
  const flags = { read: false, starred: false, isSpam: false, isTest: false };
  const pending = { ...flags, confirmation: pendingConfirmation(NOW) };
  const confirmed = { ...flags, confirmation: confirmedAt(pending.confirmation, NOW) };

  it('pending: only in the pending folder, counted nowhere, in no summary count', () => {
    expect(isPending(pending)).toBe(true);
    expect(foldersOf(pending)).toEqual(['pending']);
    expect(countsAsSubmission(pending)).toBe(false);
    const submission = {
      id: 'x',
      formId: 'f',
      data: {},
      meta: { userAgent: '', referrer: '' },
      createdAt: NOW.toISOString(),
      ...pending,
    };
    expect(countersOf(submission, { type: 'custom', fields: null })).toEqual({});
  });

  it('confirmed: a normal unread submission; the move is one out of pending, one into all and unread', () => {
    expect(confirmed.confirmation).toEqual({
      status: 'confirmed',
      requestedAt: NOW.toISOString(),
      confirmedAt: NOW.toISOString(),
    });
    expect(foldersOf(confirmed)).toEqual(['all', 'unread']);
    expect(countsAsSubmission(confirmed)).toBe(true);
    expect(addCounterDeltas(noDeltas(), pending, confirmed)).toEqual({
      folders: { all: 1, unread: 1, starred: 0, spam: 0, pending: -1 },
      submissionCount: 1,
    });
    // Deleting a pending one moves only the pending folder.
    expect(addCounterDeltas(noDeltas(), pending, undefined)).toEqual({
      folders: { all: 0, unread: 0, starred: 0, spam: 0, pending: -1 },
      submissionCount: 0,
    });
  });

  it('the stream tells a pending post and its confirmation apart from every other write', () => {
    const image = (status: string) => ({
      entity: { S: 'submission' },
      confirmation: { M: { status: { S: status } } },
      scanPending: { N: '0' },
    });
    const inserted = { eventName: 'INSERT', dynamodb: { NewImage: image('pending') } };
    const confirm = {
      eventName: 'MODIFY',
      dynamodb: { NewImage: image('confirmed'), OldImage: image('pending') },
    };
    const later = {
      eventName: 'MODIFY',
      dynamodb: { NewImage: image('confirmed'), OldImage: image('confirmed') },
    };
    expect(matchesPattern(inserted, INSERTED_PENDING_PATTERN)).toBe(true);
    expect(matchesPattern(confirm, CONFIRMED_SUBMISSION_PATTERN)).toBe(true);
    expect(matchesPattern(later, CONFIRMED_SUBMISSION_PATTERN)).toBe(false);
    expect(matchesPattern(inserted, CONFIRMED_SUBMISSION_PATTERN)).toBe(false);
    expect(matchesPattern(confirm, SCAN_SETTLED_PATTERN)).toBe(false);
  });
});

describe('the confirmEmail setting', () => {
  const email: FieldDefinition = { id: 'email', type: 'email', required: true };
  const form = (fields: FieldDefinition[], pages: FormRecord['pages'] = null): FormRecord => ({
    ...defaultSettings('RSVP', 'custom'),
    fields,
    pages,
    id: 'f',
    teamId: 't',
    userId: 'u',
    key: 'k',
    captchaSecretKey: null,
    submissionCount: 0,
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
  });
  const save = (current: FormRecord, body: unknown) =>
    applyFormUpdate(current, parseFormUpdate(body), 'free', NOW);
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as { issues?: { path: string; message: string }[] }).issues;
    }
    return undefined;
  };

  it('takes a required email field every visitor is asked, on Free', () => {
    const saved = save(form([email]), { confirmEmail: { field: 'email' } });
    expect(saved.confirmEmail).toEqual({ field: 'email' });
    expect(save(saved, { confirmEmail: null }).confirmEmail).toBeNull();
    expect(form([email]).confirmEmail).toBeNull();
  });

  it('refuses at confirmEmail.field a missing, non-email, optional or conditional field', () => {
    const cases: [FieldDefinition[], RegExp][] = [
      [[], /a field of the form/],
      [[{ id: 'email', type: 'text', required: true }], /an email field/],
      [[{ id: 'email', type: 'email' }], /a required field/],
      [
        [
          { id: 'a', type: 'text' },
          { ...email, showIf: { all: [{ field: 'a', op: 'notEmpty' }] } },
        ],
        /without showIf/,
      ],
    ];
    for (const [fields, message] of cases) {
      const issues = refusal(() => save(form(fields), { confirmEmail: { field: 'email' } }));
      expect(issues, JSON.stringify(fields)).toEqual([
        { path: 'confirmEmail.field', code: 'custom', message: expect.stringMatching(message) },
      ]);
    }
    expect(
      emailFieldSettingIssues(
        'confirmEmail',
        { field: 'email' },
        form(
          [{ id: 'name', type: 'text' }, email],
          [
            { id: 'p1', fields: ['name'] },
            { id: 'p2', fields: ['email'] },
          ],
        ),
      ),
    ).toEqual([
      { path: 'confirmEmail.field', code: 'custom', message: expect.stringMatching(/first page/) },
    ]);
    expect(refusal(() => save(form([email]), { confirmEmail: { field: 'email', x: 1 } }))).toEqual([
      expect.objectContaining({ path: 'confirmEmail.x' }),
    ]);
  });

  it('refuses a save that removes or loosens its field without clearing it', () => {
    const saved = save(form([email]), { confirmEmail: { field: 'email' } });
    expect(refusal(() => save(saved, { fields: [{ id: 'other', type: 'text' }] }))).toEqual([
      expect.objectContaining({ path: 'confirmEmail.field' }),
    ]);
    expect(refusal(() => save(saved, { fields: [{ ...email, required: false }] }))).toEqual([
      expect.objectContaining({ path: 'confirmEmail.field' }),
    ]);
    expect(
      save(saved, { fields: [{ id: 'other', type: 'text' }], confirmEmail: null }).confirmEmail,
    ).toBeNull();
  });
});

describe('the confirmation email', () => {
  it('escapes what the owner and visitor wrote, and keeps its headers to one line', () => {
    const message = confirmationEmail({
      form: {
        name: 'Party <script>x</script>\r\nBcc: evil@example.com',
        notifyFromName: 'Acme\nX',
      },
      to: 'ada@example.com',
      link: 'https://forms.example/c/abc.def',
      expiresAt: Date.parse('2026-11-30T18:00:00Z'),
    });
    expect(message.subject).not.toMatch(/[\r\n]/);
    expect(message.fromName).not.toMatch(/[\r\n]/);
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('&lt;script&gt;');
    expect(message.text).toContain('https://forms.example/c/abc.def');
    expect(message.text).toContain('The link works until 30 November 2026 at 18:00 UTC.');
    expect(message.autoSubmitted).toBe('auto-generated');
  });

  it('goes to the confirmEmail field’s answer when it is an address, else nowhere', () => {
    const form = { confirmEmail: { field: 'email' } };
    expect(confirmationAddress({ data: { email: ' ada@example.com ' } }, form)).toBe(
      'ada@example.com',
    );
    expect(confirmationAddress({ data: { email: 'a@b.c\r\nBcc: x@y.z' } }, form)).toBeUndefined();
    expect(confirmationAddress({ data: {} }, form)).toBeUndefined();
    expect(
      confirmationAddress({ data: { email: 'ada@example.com' } }, { confirmEmail: null }),
    ).toBe(undefined);
  });
});
