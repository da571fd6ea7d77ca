import { describe, expect, it } from 'vitest';
import { keyedVisitor, visitorIdentity } from '#domain/same-visitor.ts';
import {
  duplicateFingerprint,
  isLinkSpam,
  spamExpired,
  spamExpiredUpTo,
} from '#domain/spam-rules.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters';

describe('isLinkSpam', () => {
  it('leaves a message without links clean', () => {
    expect(isLinkSpam({ name: 'Ada', message: 'Hello, please call me back.' })).toBe(false);
  });

  it('leaves one or two pasted links in a message clean', () => {
    expect(isLinkSpam({ message: 'See https://example.com/bug' })).toBe(false);
    expect(
      isLinkSpam({ message: 'Site https://example.com, docs www.example.org/docs', website: '' }),
    ).toBe(false);
  });

  it('marks three links across the answers', () => {
    expect(isLinkSpam({ message: 'http://a.com https://b.com', website: 'www.c.com' })).toBe(true);
    expect(isLinkSpam({ message: 'https://a.com https://b.com https://c.com' })).toBe(true);
  });

  it('counts https://www.… once', () => {
    expect(isLinkSpam({ message: 'https://www.a.com and https://www.b.com' })).toBe(false);
  });

  it('does not count an e-mail address on www as a link', () => {
    expect(
      isLinkSpam({ email: 'me@www.example.com', message: 'https://a.com https://b.com' }),
    ).toBe(false);
  });

  it('marks BBCode and HTML link markup even once', () => {
    expect(isLinkSpam({ message: '[url=http://x.com]cheap[/url]' })).toBe(true);
    expect(isLinkSpam({ message: '[URL]x.com[/URL]' })).toBe(true);
    expect(isLinkSpam({ message: '[link=x.com]x[/link]' })).toBe(true);
    expect(isLinkSpam({ message: '<a href="http://x.com">x</a>' })).toBe(true);
    expect(isLinkSpam({ message: "<A class='c' HREF='x'>x</A>" })).toBe(true);
  });

  it('leaves markup-like text that is not a link clean', () => {
    expect(isLinkSpam({ message: 'I use <abbr> and [b]bold[/b] a lot' })).toBe(false);
  });

  it('marks a single link in a name field', () => {
    for (const name of [
      'name',
      'Name',
      'first_name',
      'lastName',
      'Full Name',
      'fname',
      'your-name',
    ]) {
      expect(isLinkSpam({ [name]: 'Visit https://spam.example' }), name).toBe(true);
    }
    expect(isLinkSpam({ name: 'www.spam.example' })).toBe(true);
  });

  it('does not treat username or company_name as a name field', () => {
    expect(isLinkSpam({ username: 'https://me.example' })).toBe(false);
    expect(isLinkSpam({ company_name: 'www.acme.example' })).toBe(false);
  });

  it('ignores the _invalid marker', () => {
    expect(isLinkSpam({ _invalid: '<a href="x">', message: 'hi' })).toBe(false);
  });

  it('gives the same answer when called repeatedly (no regex state leaks)', () => {
    const data = { message: 'https://a.com https://b.com https://c.com' };
    expect([isLinkSpam(data), isLinkSpam(data), isLinkSpam(data)]).toEqual([true, true, true]);
  });
});

describe('duplicateFingerprint', () => {
  const answers = { name: 'Ada', email: 'ada@example.com', message: 'Hi' };
  const VISITOR = keyedVisitor(SECRET, visitorIdentity('198.51.100.7', 'Firefox/140'));

  it('is the same answers from the same visitor: two people giving the same score are two answers', () => {
    const score = { score: '9' };
    const other = keyedVisitor(SECRET, visitorIdentity('198.51.100.8', 'Firefox/140'));
    const otherBrowser = keyedVisitor(SECRET, visitorIdentity('198.51.100.7', 'Safari/18'));
    expect(duplicateFingerprint('form1', other, score)).not.toBe(
      duplicateFingerprint('form1', VISITOR, score),
    );
    expect(duplicateFingerprint('form1', otherBrowser, score)).not.toBe(
      duplicateFingerprint('form1', VISITOR, score),
    );
    const again = keyedVisitor(SECRET, visitorIdentity('198.51.100.7', 'Firefox/140'));
    expect(duplicateFingerprint('form1', again, score)).toBe(
      duplicateFingerprint('form1', VISITOR, score),
    );
  });

  it('is a sha256 hex digest', () => {
    expect(duplicateFingerprint('form1', VISITOR, answers)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on field order', () => {
    const reordered = { message: 'Hi', email: 'ada@example.com', name: 'Ada' };
    expect(duplicateFingerprint('form1', VISITOR, reordered)).toBe(
      duplicateFingerprint('form1', VISITOR, answers),
    );
  });

  it('ignores surrounding whitespace in values', () => {
    const padded = { name: ' Ada', email: 'ada@example.com\n', message: 'Hi  ' };
    expect(duplicateFingerprint('form1', VISITOR, padded)).toBe(
      duplicateFingerprint('form1', VISITOR, answers),
    );
  });

  it('ignores the _invalid marker', () => {
    const marked = { ...answers, _invalid: '[{"fieldId":"x","reason":"required"}]' };
    expect(duplicateFingerprint('form1', VISITOR, marked)).toBe(
      duplicateFingerprint('form1', VISITOR, answers),
    );
  });

  it('differs by form', () => {
    expect(duplicateFingerprint('form2', VISITOR, answers)).not.toBe(
      duplicateFingerprint('form1', VISITOR, answers),
    );
  });

  it('differs when an answer differs in its inner text, or a name differs', () => {
    const base = duplicateFingerprint('form1', VISITOR, answers);
    expect(duplicateFingerprint('form1', VISITOR, { ...answers, message: 'Hi there' })).not.toBe(
      base,
    );
    expect(duplicateFingerprint('form1', VISITOR, { ...answers, message: 'H i' })).not.toBe(base);
    const { message, ...rest } = answers;
    expect(duplicateFingerprint('form1', VISITOR, { ...rest, note: message })).not.toBe(base);
  });

  it('ignores case, in names and values, with Unicode case folding', () => {
    const base = duplicateFingerprint('form1', VISITOR, answers);
    expect(duplicateFingerprint('form1', VISITOR, { ...answers, message: 'HI' })).toBe(base);
    const { message, ...rest } = answers;
    expect(duplicateFingerprint('form1', VISITOR, { ...rest, MESSAGE: message })).toBe(base);
    expect(duplicateFingerprint('f', VISITOR, { street: 'Straße' })).toBe(
      duplicateFingerprint('f', VISITOR, { street: 'STRASSE' }),
    );
  });

  it('ignores hidden characters, NUL and runs of white space', () => {
    const base = duplicateFingerprint('form1', VISITOR, { message: 'Buy cheap pills now' });
    for (const disguised of [
      'Buy\u200B cheap pills now',
      'Buy cheap\u0000 pills now',
      '\uFEFFBuy  cheap\t\tpills\n now',
      'Buy cheap \u202Epills\u202C now',
      'Buy\u00A0cheap\u2003pills now',
    ]) {
      expect(
        duplicateFingerprint('form1', VISITOR, { message: disguised }),
        JSON.stringify(disguised),
      ).toBe(base);
    }
  });

  it('compares in NFKC: composed and decomposed accents, full-width letters match', () => {
    expect(duplicateFingerprint('f', VISITOR, { name: 'Jos\u00e9' })).toBe(
      duplicateFingerprint('f', VISITOR, { name: 'Jose\u0301' }),
    );
    expect(duplicateFingerprint('f', VISITOR, { name: '\uFF21\uFF44\uFF41' })).toBe(
      duplicateFingerprint('f', VISITOR, { name: 'Ada' }),
    );
  });

  it('ignores empty answers', () => {
    const base = duplicateFingerprint('form1', VISITOR, answers);
    expect(duplicateFingerprint('form1', VISITOR, { ...answers, company: '' })).toBe(base);
    expect(duplicateFingerprint('form1', VISITOR, { ...answers, company: ' \u200B ' })).toBe(base);
  });

  it('keeps names and values apart', () => {
    expect(duplicateFingerprint('f', VISITOR, { a: 'b,c' })).not.toBe(
      duplicateFingerprint('f', VISITOR, { 'a,b': 'c' }),
    );
    expect(duplicateFingerprint('f', VISITOR, { a: '', b: 'x' })).not.toBe(
      duplicateFingerprint('f', VISITOR, { a: 'x', b: '' }),
    );
  });
});

describe('the same visitor (visitorIdentity, keyedVisitor)', () => {
  it('is one IPv6 visitor across its /64, with the same user agent', () => {
    expect(visitorIdentity('2001:db8:1:2::a', 'UA')).toBe(
      visitorIdentity('2001:db8:1:2:ffff::1', 'UA'),
    );
    expect(visitorIdentity('2001:db8:1:3::a', 'UA')).not.toBe(
      visitorIdentity('2001:db8:1:2::a', 'UA'),
    );
    expect(visitorIdentity('2001:db8:1:2::a', 'UA')).not.toBe(
      visitorIdentity('2001:db8:1:2::a', 'UB'),
    );
  });

  it('is an IPv4 visitor by its address; without one, by the user agent alone', () => {
    expect(visitorIdentity('198.51.100.1', 'UA')).not.toBe(visitorIdentity('198.51.100.2', 'UA'));
    expect(visitorIdentity(undefined, 'UA')).toBe('\nUA');
  });

  it('is keyed: another secret, another hash; the address is not in it', () => {
    const identity = visitorIdentity('198.51.100.1', 'UA');
    const hash = keyedVisitor(SECRET, identity);
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(keyedVisitor(`${SECRET}!`, identity)).not.toBe(hash);
    expect(hash).not.toContain('198');
  });
});

describe('spam retention', () => {
  const upTo = spamExpiredUpTo(new Date('2026-11-23T12:00:00Z'), 30);

  it('counts 30 days from receipt for spam stored as spam', () => {
    expect(upTo).toBe('2026-10-24T12:00:00.000Z');
    expect(spamExpired({ isSpam: true, createdAt: '2026-10-24T11:59:59.000Z' }, upTo)).toBe(true);
    expect(spamExpired({ isSpam: true, createdAt: '2026-10-24T12:00:01.000Z' }, upTo)).toBe(false);
  });

  it('counts from the move for spam the owner moved there, and never takes what is not spam', () => {
    const old = '2026-09-01T00:00:00.000Z';
    expect(
      spamExpired({ isSpam: true, createdAt: old, spamAt: '2026-11-20T00:00:00.000Z' }, upTo),
    ).toBe(false);
    expect(
      spamExpired({ isSpam: true, createdAt: old, spamAt: '2026-10-01T00:00:00.000Z' }, upTo),
    ).toBe(true);
    expect(spamExpired({ isSpam: false, createdAt: old }, upTo)).toBe(false);
  });
});
