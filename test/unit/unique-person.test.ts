import { describe, expect, it } from 'vitest';
import { channelsFor, scanChannelsFor } from '#domain/delivery-channels.ts';
import { ServiceError } from '#domain/errors.ts';
import { newForm } from '#domain/form-defaults.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { applyFormUpdate, parseFormUpdate } from '#domain/form-update.ts';
import type { Submission } from '#domain/submission-model.ts';
import { personFieldIssue, personMailbox, personPlaceHash } from '#domain/unique-person.ts';
import type { Issue } from '#domain/validation-issues.ts';
import { SUBMISSIONS_PER_TRANSACTION, transactionSlices } from '#store/submission-changes.ts';

const now = new Date('2026-03-01T12:00:00.000Z');
const SECRET = 'a-keyed-hash-secret-of-enough-length-0123456789';

/** A contact form: name, email (required) and message. */
const contact = (overrides: Partial<FormRecord> = {}): FormRecord => ({
  ...newForm({ teamId: 't1', userId: 'u1', name: 'RSVP', type: 'contact', now }),
  ...overrides,
});

const patch = (current: FormRecord, body: unknown, plan: 'free' | 'pro' = 'free') =>
  applyFormUpdate(current, parseFormUpdate(body), plan, now);

function refusedAt(run: () => unknown): Issue[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'invalid_request') {
      return error.issues as Issue[];
    }
    throw error;
  }
  throw new Error('expected the update to be refused');
}

describe('the unique setting on save', () => {
  it('is null on a new form, set and cleared by PATCH on a Free team', () => {
    const form = contact();
    expect(form.unique).toBeNull();
    const set = patch(form, { unique: { field: 'email' } });
    expect(set.unique).toEqual({ field: 'email' });
    expect(patch(set, { unique: null }).unique).toBeNull();
  });

  it('refuses a field that does not exist, is not email, is optional or has showIf, at unique.field', () => {
    const withShowIf = contact({
      fields: [
        { id: 'name', type: 'text', required: true },
        {
          id: 'email',
          type: 'email',
          required: true,
          showIf: { all: [{ field: 'name', op: 'notEmpty' }] },
        },
      ] as FormRecord['fields'],
    });
    const optional = contact({
      fields: [{ id: 'email', type: 'email', required: false }],
    });
    for (const [form, field, words] of [
      [contact(), 'nope', 'Names no field'],
      [contact(), 'name', 'Must name an email field'],
      [optional, 'email', 'Must name a required field'],
      [withShowIf, 'email', 'showIf'],
    ] as const) {
      const issues = refusedAt(() => patch(form, { unique: { field } }));
      expect(issues.map((issue) => issue.path)).toEqual(['unique.field']);
      expect(issues[0]!.message).toContain(words);
    }
  });

  it('refuses removing or making optional the field it names, unless cleared in the same request', () => {
    const form = patch(contact(), { unique: { field: 'email' } });
    const others = form.fields!.filter((field) => field.id !== 'email');
    expect(refusedAt(() => patch(form, { fields: others })).map((i) => i.path)).toEqual([
      'unique.field',
    ]);
    const optional = form.fields!.map((field) =>
      field.id === 'email' ? { ...field, required: false } : field,
    );
    expect(refusedAt(() => patch(form, { fields: optional })).map((i) => i.path)).toEqual([
      'unique.field',
    ]);
    expect(patch(form, { fields: others, unique: null }).unique).toBeNull();
  });

  it('refuses a malformed setting with the schema', () => {
    for (const body of [{ unique: { field: '' } }, { unique: { field: 'email', x: 1 } }]) {
      const issues = refusedAt(() => parseFormUpdate(body));
      expect(issues[0]!.path).toMatch(/^unique\./);
    }
  });

  it('personFieldIssue names the path it is given (the confirm setting uses it too)', () => {
    expect(personFieldIssue({ fields: null }, 'email', 'confirmEmail.field')?.path).toBe(
      'confirmEmail.field',
    );
    expect(personFieldIssue(contact(), 'email', 'unique.field')).toBeUndefined();
  });

  it('on a form with pages, refuses a field off the first page (rules may skip the others)', () => {
    const form = patch(contact(), { unique: { field: 'email' } });
    const pages = (first: string[], second: string[]) => [
      { id: 'one', fields: first },
      { id: 'two', fields: second },
    ];
    expect(patch(form, { pages: pages(['name', 'email'], ['message']) }).pages).toHaveLength(2);
    const issues = refusedAt(() => patch(form, { pages: pages(['name'], ['email', 'message']) }));
    expect(issues.map((issue) => issue.path)).toEqual(['unique.field']);
    expect(issues[0]!.message).toContain('first page');
  });
});

describe('the mailbox a post holds a place with', () => {
  const unique = { field: 'email' };

  it('folds case, +tags, Gmail dots and googlemail as suppression does', () => {
    const mailbox = (email: string) => personMailbox(unique, { email });
    expect(mailbox('Ada.Lovelace+rsvp@GoogleMail.com')).toBe('adalovelace@gmail.com');
    expect(mailbox('adalovelace@gmail.com')).toBe('adalovelace@gmail.com');
    expect(mailbox(' Ada+x@Example.com ')).toBe('ada@example.com');
    // Dots count outside Gmail: two mailboxes.
    expect(mailbox('a.da@example.com')).toBe('a.da@example.com');
    // An invisible character does not make a new person.
    expect(mailbox('ada@example.com\u200b')).toBe('ada@example.com');
  });

  it('is undefined without the setting, without the answer, or when the answer is not an address', () => {
    expect(personMailbox(null, { email: 'ada@example.com' })).toBeUndefined();
    expect(personMailbox(unique, {})).toBeUndefined();
    expect(personMailbox(unique, { email: 'not an address' })).toBeUndefined();
    expect(personMailbox({ field: 'constructor' }, {})).toBeUndefined();
  });

  it('hashes the mailbox under the team key: the same for one team, another for another team', () => {
    const hash = personPlaceHash(SECRET, 't1', 'ada@example.com');
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(hash).not.toContain('ada');
    expect(personPlaceHash(SECRET, 't1', 'ada@example.com')).toBe(hash);
    expect(personPlaceHash(SECRET, 't2', 'ada@example.com')).not.toBe(hash);
  });
});

describe('what a person’s second answer moves', () => {
  it('goes to no channel, not even the webhook that other spam reaches', () => {
    const input = {
      form: { notifyEnabled: true, autoreplyEnabled: true },
      plan: 'pro' as const,
      webhookConnected: true,
      chats: ['slack' as const],
      sheets: true,
      spam: true,
      submitterFound: true,
    };
    expect(channelsFor({ ...input, spamReason: 'duplicate' })).toEqual(['webhook']);
    expect(channelsFor({ ...input, spamReason: 'duplicate_person' })).toEqual([]);
    const scanned = { plan: 'pro' as const, webhookConnected: true, chats: [], spam: true };
    expect(scanChannelsFor({ ...scanned, infected: true, spamReason: 'duplicate' })).toEqual([
      'webhook',
    ]);
    expect(scanChannelsFor({ ...scanned, infected: true, spamReason: 'duplicate_person' })).toEqual(
      [],
    );
  });

  it('a submission holding a place counts twice in a deleting transaction (it frees the place)', () => {
    const submission = (personHash?: string) =>
      ({ id: crypto.randomUUID(), ...(personHash ? { personHash } : {}) }) as Submission;
    const plain = Array.from({ length: SUBMISSIONS_PER_TRANSACTION + 1 }, () => submission());
    expect(transactionSlices(plain).map((slice) => slice.length)).toEqual([
      SUBMISSIONS_PER_TRANSACTION,
      1,
    ]);
    const holding = Array.from({ length: SUBMISSIONS_PER_TRANSACTION }, () => submission('h'));
    const slices = transactionSlices(holding);
    expect(slices.map((slice) => slice.length)).toEqual([
      Math.floor(SUBMISSIONS_PER_TRANSACTION / 2),
      Math.ceil(SUBMISSIONS_PER_TRANSACTION / 2),
    ]);
    expect(slices.flat()).toEqual(holding);
  });
});
