import { describe, expect, it } from 'vitest';
import {
  answerRows,
  deviceWords,
  optionsOf,
  replyHref,
  senderOf,
  shownAnswer,
  webAddress,
} from '#app/answers.ts';
import type { FieldDefinition, Submission } from '#app/model.ts';

const field = (id: string, type: string, more: Record<string, unknown> = {}) =>
  ({ id, type, label: id.toUpperCase(), ...more }) as unknown as FieldDefinition;

const submission = (
  data: Record<string, string>,
  files: NonNullable<Submission['meta']['files']> = [],
): Pick<Submission, 'data' | 'meta'> => ({
  data,
  meta: { userAgent: '', referrer: '', ...(files.length ? { files } : {}) },
});

describe('the answers model: how each answer of a submission is shown', () => {
  it('an email answer is a reply address; a bad one (or one that failed its check) stays text', () => {
    expect(shownAnswer(' ada@example.com ', field('email', 'email'), 'email', undefined)).toEqual({
      kind: 'email',
      address: 'ada@example.com',
    });
    expect(shownAnswer('ada@example.com?cc=x@y.z', field('e', 'email'), 'e', undefined)).toEqual({
      kind: 'text',
      text: 'ada@example.com?cc=x@y.z',
    });
    expect(shownAnswer('not-an-address', field('e', 'email'), 'e', 'Not an email address')).toEqual(
      { kind: 'text', text: 'not-an-address' },
    );
    // Without a field, an answer named `email` is read as the auto-reply reads it.
    expect(shownAnswer('b@example.org', undefined, 'Email', undefined).kind).toBe('email');
  });

  it('the reply is a mailto whose subject is "Re: <form name>", escaped', () => {
    expect(replyHref('ada@example.com', 'Contact & more')).toBe(
      'mailto:ada@example.com?subject=Re%3A%20Contact%20%26%20more',
    );
    expect(replyHref('ada@example.com', 'Two\r\nBcc: x@example.com')).toBe(
      'mailto:ada@example.com?subject=Re%3A%20Two%20Bcc%3A%20x%40example.com',
    );
  });

  it('a phone answer is a tel: link of its digits and +', () => {
    expect(shownAnswer('+44 (20) 7946-0958', field('phone', 'tel'), 'phone', undefined)).toEqual({
      kind: 'tel',
      number: '+44 (20) 7946-0958',
      href: 'tel:+442079460958',
    });
    expect(shownAnswer('call me', field('phone', 'tel'), 'phone', undefined).kind).toBe('text');
    expect(shownAnswer('0123 456 789', undefined, 'phone', undefined).kind).toBe('tel');
  });

  it('only an http or https address becomes a link: javascript:, data: and the rest stay text', () => {
    expect(
      shownAnswer('https://example.com/a?b=1', field('site', 'url'), 'site', undefined),
    ).toEqual({
      kind: 'url',
      text: 'https://example.com/a?b=1',
      href: 'https://example.com/a?b=1',
    });
    for (const value of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      ' javascript://example.com/%0Aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example',
      'http://',
    ]) {
      expect(shownAnswer(value, field('site', 'url'), 'site', undefined), value).toEqual({
        kind: 'text',
        text: value,
      });
      expect(webAddress(value), value).toBeUndefined();
    }
    // An answer without a field that is a web address is a link too; any other text is not.
    expect(shownAnswer('http://example.org', undefined, 'note', undefined).kind).toBe('url');
    expect(shownAnswer('see http://example.org', undefined, 'note', undefined).kind).toBe('text');
  });

  it('a checkbox list is its options, an option holding a comma kept whole; a lone tick says so', () => {
    const options = ['Yes, please', 'No', 'Maybe'];
    expect(optionsOf('Yes, please,Maybe', options)).toEqual(['Yes, please', 'Maybe']);
    expect(optionsOf('Nope', options)).toBeUndefined();
    expect(
      shownAnswer('No,Maybe', field('pick', 'checkbox', { options }), 'pick', undefined),
    ).toEqual({ kind: 'list', items: ['No', 'Maybe'] });
    expect(shownAnswer('No', field('pick', 'checkbox', { options }), 'pick', undefined)).toEqual({
      kind: 'text',
      text: 'No',
    });
    // Without options (the hosted page's one box), repeated boxes split at a bare comma only.
    expect(shownAnswer('Rooms,Food, drinks', field('pick', 'checkbox'), 'pick', undefined)).toEqual(
      {
        kind: 'list',
        items: ['Rooms', 'Food, drinks'],
      },
    );
    expect(shownAnswer('Yes, please', field('pick', 'checkbox'), 'pick', undefined).kind).toBe(
      'text',
    );
    expect(shownAnswer('on', field('agree', 'checkbox'), 'agree', undefined)).toEqual({
      kind: 'text',
      text: 'Ticked',
    });
  });

  it('an empty or blank answer is empty; text is text, whatever it holds', () => {
    expect(shownAnswer(undefined, field('a', 'text'), 'a', undefined)).toEqual({ kind: 'empty' });
    expect(shownAnswer('  ', field('a', 'text'), 'a', undefined)).toEqual({ kind: 'empty' });
    expect(shownAnswer('<b>hi</b>', field('a', 'text'), 'a', undefined)).toEqual({
      kind: 'text',
      text: '<b>hi</b>',
    });
  });

  it('rows: field order with labels and problems, files under their field, unknown answers after', () => {
    const fields = [field('name', 'text'), field('cv', 'file'), field('email', 'email')];
    const rows = answerRows(
      submission(
        {
          note: 'extra',
          email: 'nope',
          name: 'Ada',
          _invalid: JSON.stringify([{ fieldId: 'email', reason: 'invalid_email' }]),
        },
        [
          { field: 'cv', name: 'cv.pdf', mime: 'application/pdf', size: 10, scan: 'clean' },
          { field: 'photos[]', name: 'me.png', mime: 'image/png', size: 3, scan: 'pending' },
        ],
      ),
      fields,
    );
    expect(rows.map((row) => [row.label, row.shown.kind, row.problem])).toEqual([
      ['NAME', 'text', undefined],
      ['CV', 'files', undefined],
      ['EMAIL', 'text', 'Not an email address'],
      ['note', 'text', undefined],
      ['photos', 'files', undefined],
    ]);
    expect(rows[1]!.shown).toEqual({
      kind: 'files',
      files: [{ index: 0, name: 'cv.pdf', mime: 'application/pdf', size: 10, scan: 'clean' }],
    });
    expect(rows[4]!.shown).toEqual({
      kind: 'files',
      files: [{ index: 1, name: 'me.png', mime: 'image/png', size: 3, scan: 'pending' }],
    });
  });

  it('files stored without their field go to the form’s one file field, else to "Files"', () => {
    const old = submission({ name: 'Ada' }, [
      { name: 'a.pdf', mime: 'application/pdf', size: 1, scan: 'not_scanned' },
    ]);
    const one = answerRows(old, [field('name', 'text'), field('cv', 'file')]);
    expect(one.map((row) => [row.label, row.shown.kind])).toEqual([
      ['NAME', 'text'],
      ['CV', 'files'],
    ]);
    const two = answerRows(old, [field('cv', 'file'), field('letter', 'file')]);
    expect(two.map((row) => [row.label, row.shown.kind])).toEqual([
      ['CV', 'empty'],
      ['LETTER', 'empty'],
      ['name', 'text'],
      ['Files', 'files'],
    ]);
    expect(answerRows(old, null).map((row) => [row.label, row.shown.kind])).toEqual([
      ['name', 'text'],
      ['Files', 'files'],
    ]);
  });

  it('a field named like an Object property reads its own answer only', () => {
    const rows = answerRows(submission({}), [field('constructor', 'text')]);
    expect(rows[0]!.shown).toEqual({ kind: 'empty' });
  });
});

describe('the sender', () => {
  it('a name answer, else first and last names; the first good email field, else `email`', () => {
    expect(senderOf({ name: ' Ada ', email: 'ada@example.com' }, null)).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
    });
    expect(senderOf({ first_name: 'Ada', last_name: 'Lovelace' }, null)).toEqual({
      name: 'Ada Lovelace',
    });
    const fields = [field('work', 'email'), field('home', 'email')];
    expect(senderOf({ home: 'h@example.com', email: 'x@example.com' }, fields)).toEqual({
      email: 'h@example.com',
    });
    expect(
      senderOf(
        {
          work: 'w@example.com',
          _invalid: JSON.stringify([{ fieldId: 'work', reason: 'invalid_email' }]),
        },
        fields,
      ),
    ).toEqual({});
    expect(senderOf({ email: 'not an address' }, null)).toEqual({});
    expect(senderOf({}, null)).toEqual({});
  });

  it('devices in words', () => {
    expect(deviceWords('mobile')).toBe('Phone');
    expect(deviceWords('desktop')).toBe('Computer');
    expect(deviceWords(undefined)).toBeUndefined();
  });
});
