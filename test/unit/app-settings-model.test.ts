import { describe, expect, it } from 'vitest';
import type { Form } from '#app/model.ts';
import { fromApi, plainWords } from '#app/problem-sentences.ts';
import {
  changesOf,
  countryCode,
  countryLine,
  type Draft,
  draftOf,
  emptyAnswerProblems,
  entriesOf,
  GROUPS,
  type Group,
  isChanged,
  personFieldChoices,
  problemsFromApi,
} from '#app/settings-model.ts';
import { defaultSettings } from '#domain/form-defaults.ts';

const group = (title: string): Group => GROUPS.find((each) => each.title === title)!;
const security = group('Spam and security');
const notifications = group('Notifications');
const form = (settings: Partial<Form> = {}) =>
  ({ ...defaultSettings('Tuned', 'contact'), id: 'f-1', ...settings }) as unknown as Form;

/** The group's draft as saved, with `edits` typed over it. */
function edited(of: Group, edits: Draft, saved: Partial<Form> = {}) {
  const before = draftOf(form(saved), of);
  return { before, after: { ...before, ...edits } };
}

/** Schema text or API names: never in a sentence for people. */
const TECHNICAL = /Too (small|big)|expected|>=|<=|[a-z][A-Z]/;

describe('settings model: changes → PATCH body', () => {
  it('sends only what changed, lists trimmed without blank lines, empty nullable text as null', () => {
    const { before, after } = edited(security, {
      blockedIps: ' 10.0.0.0/8 \n\n203.0.113.7\n',
    });
    const { body, problems } = changesOf(security, before, after);
    expect(problems).toEqual([]);
    expect(body).toEqual({ blockedIps: ['10.0.0.0/8', '203.0.113.7'] });
    const general = group('General');
    const named = edited(general, { emoji: '', name: 'New' }, { emoji: '📮' } as Partial<Form>);
    expect(changesOf(general, named.before, named.after).body).toEqual({
      emoji: null,
      name: 'New',
    });
  });

  it('countries show as names with their codes and are sent as codes, by name or code', () => {
    expect(countryLine('DE')).toBe('Germany (DE)');
    expect(countryCode('Germany (DE)')).toBe('DE');
    expect(countryCode('germany')).toBe('DE');
    expect(countryCode('fr')).toBe('FR');
    expect(countryCode('Atlantis')).toBe('Atlantis');
    const saved = { blockedCountries: ['DE'] } as Partial<Form>;
    const { before, after } = edited(security, { blockedCountries: 'Germany (DE)\nFrance' }, saved);
    expect(before.blockedCountries).toBe('Germany (DE)');
    expect(changesOf(security, before, after).body).toEqual({ blockedCountries: ['DE', 'FR'] });
  });

  it('the other recipients: rows left blank are neither sent nor a change', () => {
    const { before, after } = edited(notifications, { notifyCc: ['a@example.com', ' ', ''] });
    expect(changesOf(notifications, before, after).body).toEqual({ notifyCc: ['a@example.com'] });
    const blank = edited(notifications, { notifyCc: [''] });
    expect(isChanged(notifications, blank.before, blank.after)).toBe(false);
    expect(isChanged(notifications, before, after)).toBe(true);
  });

  it('a list is unchanged by blank lines and spaces: nothing to send, no unsaved state', () => {
    const saved = { blockedIps: ['10.0.0.0/8'], blockedCountries: ['DE'] } as Partial<Form>;
    const { before, after } = edited(
      security,
      { blockedIps: ' 10.0.0.0/8 \n\n', blockedCountries: 'Germany (DE)\n' },
      saved,
    );
    expect(isChanged(security, before, after)).toBe(false);
    expect(changesOf(security, before, after).body).toEqual({});
  });

  it('entries keep the line they are on, blank lines counted', () => {
    expect(entriesOf('a\n\n b \n')).toEqual([
      { text: 'a', line: 1 },
      { text: 'b', line: 3 },
    ]);
  });
});

describe('settings model: refusals in words', () => {
  it('a bad list entry is named by its line as the person sees it', () => {
    const { before, after } = edited(security, {
      blockedIps: '10.0.0.0/8\n\n203.0.113.7\n10.0.0.300/8',
      blockedCountries: 'Germany\nAtlantis',
      allowedOrigins: 'ftp://example.com',
    });
    const { problems } = changesOf(security, before, after);
    expect(problems.map((problem) => problem.summary)).toEqual([
      'Websites allowed to post, line 1: “ftp://example.com” is not a website address (such as https://www.example.com)',
      'Blocked IP ranges, line 4: “10.0.0.300/8” is not an IP address or range (such as 203.0.113.0/24)',
      'Blocked countries, line 2: “Atlantis” is not a country name or code',
    ]);
    expect(problems[1]).toMatchObject({
      key: 'blockedIps',
      control: 'setting-blockedIps',
      line: 4,
      text: 'Line 4: “10.0.0.300/8” is not an IP address or range (such as 203.0.113.0/24)',
    });
  });

  it('a bad recipient is named by its row, blank rows counted, and links to that row', () => {
    const { before, after } = edited(notifications, {
      notifyCc: ['a@example.com', '', 'not an address'],
    });
    const [problem] = changesOf(notifications, before, after).problems;
    expect(problem).toEqual({
      key: 'notifyCc',
      control: 'setting-notifyCc-2',
      line: 3,
      text: 'Address 3: “not an address” is not an email address',
      summary: 'Also send them to, address 3: “not an address” is not an email address',
    });
  });

  it('bounds and types in plain sentences, never schema text', () => {
    const closing = group('Closing');
    const reply = group('Auto-reply');
    const cases: [Group, Draft, string][] = [
      [closing, { maxSubmissions: '0' }, 'Close after this many submissions: must be 1 or more'],
      [reply, { autoreplyHourlyLimit: '' }, 'Replies an hour, at most: must be a number'],
      [reply, { autoreplyHourlyLimit: '2.5' }, 'Replies an hour, at most: must be a whole number'],
      [group('General'), { name: ' ' }, 'Name: must not be empty'],
      [notifications, { notifyEmail: 'nope' }, 'Send them to: must be an email address'],
    ];
    for (const [of, edits, sentence] of cases) {
      const { before, after } = edited(of, edits);
      const summaries = changesOf(of, before, after).problems.map((problem) => problem.summary);
      expect(summaries).toEqual([sentence]);
      expect(sentence).not.toMatch(TECHNICAL);
    }
  });

  it('the route’s 400 issues too: its bounds read back from its English, its API names put in words', () => {
    const { after } = edited(security, { blockedIps: '1.1.1.1\n\n300.1.1.1' });
    const problems = problemsFromApi(security, after, [
      { path: 'blockedIps.1', code: 'custom', message: 'Must be an IPv4 or IPv6 address' },
      {
        path: 'captchaEnabled',
        code: 'custom',
        message: 'Needs captchaSiteKey and captchaSecretKey, saved before or in the same request',
      },
    ]);
    expect(problems.map((problem) => problem.summary)).toEqual([
      'Blocked IP ranges, line 3: “300.1.1.1” is not an IP address or range (such as 203.0.113.0/24)',
      'Ask for a Turnstile captcha: needs a Turnstile site key and secret key',
    ]);
    expect(
      plainWords(
        fromApi({
          path: 'notifyCc',
          code: 'too_big',
          message: 'Too big: expected array to have <=4 items',
        }),
        'more addresses',
      ),
    ).toBe('Can have at most 4 more addresses');
    expect(
      plainWords(
        fromApi({
          path: 'fields.0.options',
          code: 'too_small',
          message: 'Too small: expected array to have >=1 items',
        }),
        'options',
      ),
    ).toBe('Needs at least one of the options');
    expect(plainWords(fromApi({ path: 'x', code: 'custom', message: 'Invalid input' }))).toBe(
      'This value is not accepted',
    );
  });
});

describe('settings model: an auto-reply that would be sent with blanks (docs/dashboard.md#settings-and-fields)', () => {
  const reply = group('Auto-reply');
  const on = { autoreplyEnabled: true, autoreplyAnswerPlaceholders: false };

  it('while answers do not fill placeholders, a {{field.…}} in the reply is refused at its text', () => {
    const { after } = edited(reply, {
      ...on,
      autoreplySubject: 'Thanks {{field.name}}',
      autoreplyBody: 'Hi {{field.name}}, {{ field.name }} and {{field.email}}; {{form.name}}',
    });
    const problems = emptyAnswerProblems(reply, after);
    expect(problems.map((p) => [p.key, p.control])).toEqual([
      ['autoreplySubject', 'setting-autoreplySubject'],
      ['autoreplyBody', 'setting-autoreplyBody'],
    ]);
    expect(problems[1]?.text).toBe(
      '{{field.name}}, {{ field.name }}, {{field.email}} would be sent empty: answers fill placeholders only with “Let answers fill placeholders in the reply” on. Remove them, or turn that on.',
    );
    expect(problems[0]?.summary).toMatch(/^Reply subject: \{\{field\.name\}\} would be sent empty/);
  });

  it('nothing to say with answers on, the reply off, only form placeholders, or another group', () => {
    const text = { autoreplyBody: 'Hi {{field.name}}' };
    expect(
      emptyAnswerProblems(
        reply,
        edited(reply, { ...on, ...text, autoreplyAnswerPlaceholders: true }).after,
      ),
    ).toEqual([]);
    expect(
      emptyAnswerProblems(reply, edited(reply, { ...on, ...text, autoreplyEnabled: false }).after),
    ).toEqual([]);
    expect(
      emptyAnswerProblems(
        reply,
        edited(reply, { ...on, autoreplyBody: 'From {{form.name}}' }).after,
      ),
    ).toEqual([]);
    expect(emptyAnswerProblems(notifications, { notifySubject: '{{field.name}}' })).toEqual([]);
  });
});

describe('settings model: one answer per email address', () => {
  it('holds the field id (or nothing), sends { field } or null, and says the route’s refusal at the tick', () => {
    expect(draftOf(form(), security).unique).toBe('');
    expect(draftOf(form({ unique: { field: 'email' } }), security).unique).toBe('email');
    const on = edited(security, { unique: 'email' });
    expect(changesOf(security, on.before, on.after)).toEqual({
      body: { unique: { field: 'email' } },
      problems: [],
    });
    const off = edited(security, { unique: '' }, { unique: { field: 'email' } });
    expect(changesOf(security, off.before, off.after).body).toEqual({ unique: null });
    const [problem] = problemsFromApi(security, on.after, [
      {
        path: 'unique.field',
        code: 'custom',
        message: 'Must name a required field; set required: true on email',
      },
    ]);
    expect(problem?.control).toBe('setting-unique');
  });

  it('offers the required email fields asked of everyone, and no other', () => {
    const fields = [
      { id: 'email', type: 'email', label: 'Email', required: true },
      { id: 'work', type: 'email', required: false },
      {
        id: 'other',
        type: 'email',
        required: true,
        showIf: { all: [{ field: 'email', op: 'notEmpty' }] },
      },
      { id: 'name', type: 'text', required: true },
    ] as Form['fields'];
    expect(personFieldChoices({ fields })).toEqual([{ id: 'email', label: 'Email (email)' }]);
    expect(personFieldChoices({ fields: null })).toEqual([]);
    const paged = {
      fields,
      pages: [
        { id: 'a', fields: ['name'] },
        { id: 'b', fields: ['email'] },
      ],
    };
    expect(personFieldChoices(paged as Pick<Form, 'fields' | 'pages'>)).toEqual([]);
  });
});
