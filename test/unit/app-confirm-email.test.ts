import { describe, expect, it } from 'vitest';
import { confirmationState, isPending, waitedWords } from '#app/confirmation-model.ts';
import { FOLDER_NAMES } from '#app/inbox-model.ts';
import type { Form } from '#app/model.ts';
import { INBOX_KEYS, PENDING_KEYS } from '#app/parts/inbox-keys.tsx';
import { PENDING_SUBMISSION_KEYS, SUBMISSION_KEYS } from '#app/parts/submission-keys.tsx';
import {
  changesOf,
  type Draft,
  draftOf,
  GROUPS,
  personFieldChoices,
  problemsFromApi,
} from '#app/settings-model.ts';
import { defaultSettings } from '#domain/form-defaults.ts';

const security = GROUPS.find((each) => each.title === 'Spam and security')!;
const form = (settings: Partial<Form> = {}) =>
  ({ ...defaultSettings('Tuned', 'contact'), id: 'f-1', ...settings }) as unknown as Form;
function edited(edits: Draft, saved: Partial<Form> = {}) {
  const before = draftOf(form(saved), security);
  return { before, after: { ...before, ...edits } };
}

describe('dashboard: ask people to confirm their email', () => {
  it('the setting holds the field id (or nothing), sends { field } or null, and says the route’s refusal at its tick', () => {
    expect(draftOf(form(), security).confirmEmail).toBe('');
    expect(draftOf(form({ confirmEmail: { field: 'email' } }), security).confirmEmail).toBe(
      'email',
    );
    const on = edited({ confirmEmail: 'email' });
    expect(changesOf(security, on.before, on.after)).toEqual({
      body: { confirmEmail: { field: 'email' } },
      problems: [],
    });
    const off = edited({ confirmEmail: '' }, { confirmEmail: { field: 'email' } });
    expect(changesOf(security, off.before, off.after).body).toEqual({ confirmEmail: null });
    const [problem] = problemsFromApi(security, on.after, [
      { path: 'confirmEmail.field', code: 'custom', message: 'Must name an email field' },
    ]);
    expect(problem).toMatchObject({
      key: 'confirmEmail',
      control: 'setting-confirmEmail',
      text: 'Must name an email field',
    });
    // One sentence on what it does to the visitor and to counts.
    const setting = security.settings.find((each) => each.key === 'confirmEmail')!;
    expect(setting.label).toBe('Ask people to confirm their email');
    expect(setting.hint).toMatch(/email with a link.*counted.*only once they confirm/);
  });

  it('offers only the required email fields every visitor is asked (no showIf, first page)', () => {
    const fields = [
      { id: 'email', type: 'email', label: 'Email', required: true },
      { id: 'work', type: 'email', required: false },
      { id: 'late', type: 'email', required: true },
    ] as Form['fields'];
    expect(personFieldChoices({ fields })).toEqual([
      { id: 'email', label: 'Email (email)' },
      { id: 'late', label: 'late' },
    ]);
    const pages = [
      { id: 'a', fields: ['email', 'work'] },
      { id: 'b', fields: ['late'] },
    ];
    expect(personFieldChoices({ fields, pages } as Pick<Form, 'fields' | 'pages'>)).toEqual([
      { id: 'email', label: 'Email (email)' },
    ]);
  });

  it('says how long a submission has waited, and its state in words', () => {
    const at = '2026-11-28T18:00:00.000Z';
    const now = (minutes: number) => Date.parse(at) + minutes * 60_000;
    expect(waitedWords(at, now(0.5))).toBe('less than a minute');
    expect(waitedWords(at, now(1))).toMatch(/^1 minute$/);
    expect(waitedWords(at, now(119))).toMatch(/^1 hour$/);
    expect(waitedWords(at, now(60 * 47))).toMatch(/^1 day$/);
    expect(waitedWords(at, now(-5))).toBe('less than a minute');
    expect(waitedWords(at, now(0.5), 'short')).toBe('under 1 min');
    expect(waitedWords(at, now(3), 'short')).toMatch(/^3 min$/);
    const pending = { status: 'pending', requestedAt: at, confirmedAt: null } as const;
    expect(confirmationState(pending, now(180))).toEqual({
      state: 'pending',
      lead: 'Waiting for confirmation since',
      since: at,
      waited: waitedWords(at, now(180)),
    });
    const clicked = '2026-11-28T18:05:00.000Z';
    expect(
      confirmationState({ status: 'confirmed', requestedAt: at, confirmedAt: clicked }),
    ).toEqual({ state: 'confirmed', lead: 'Confirmed at', at: clicked });
    expect(confirmationState(null)).toBeUndefined();
    expect(isPending({ confirmation: pending })).toBe(true);
    expect(isPending({ confirmation: null })).toBe(false);
  });

  it('the folder’s name, and keys that would triage left out of the lists where only Delete applies', () => {
    expect(FOLDER_NAMES.pending).toBe('Waiting for confirmation');
    expect(PENDING_KEYS.map(([key]) => key)).toEqual(
      INBOX_KEYS.map(([key]) => key).filter((key) => !['e', 's', '!', 'z'].includes(key)),
    );
    expect(PENDING_KEYS.some(([key]) => key === '#')).toBe(true);
    const kept = PENDING_SUBMISSION_KEYS.map(([key]) => key);
    expect(kept).toContain('#');
    expect(kept).not.toContain('s');
    expect(kept).not.toContain('!');
    expect(SUBMISSION_KEYS.length - kept.length).toBe(5);
  });
});
