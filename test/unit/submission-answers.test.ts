import { describe, expect, it } from 'vitest';
import {
  cutToCodePoints,
  isBotByHoneypotOrTiming,
  isEmptySubmission,
  MIN_FILL_MS,
  normalizeAnswers,
} from '#domain/submission-answers.ts';
import { SETTINGS } from '#settings';

const pairsOf = (count: number, prefix = 'f') =>
  Array.from({ length: count }, (_, i) => [`${prefix}${i}`, `v${i}`] as const);

describe('normalizeAnswers: names', () => {
  it('keeps names as sent, case included, in order of first appearance', () => {
    const { data } = normalizeAnswers([
      ['Email', 'a@b.co'],
      ['email', 'c@d.co'],
      ['Message ', 'hi'],
    ]);
    expect(Object.keys(data)).toEqual(['Email', 'email', 'Message ']);
  });

  it('removes one trailing [] and joins with the plain name', () => {
    const { data } = normalizeAnswers([
      ['tags[]', 'a'],
      ['tags', 'b'],
      ['x[][]', 'c'],
      ['y[]z', 'd'],
    ]);
    expect(data).toEqual({ tags: 'a,b', 'x[]': 'c', 'y[]z': 'd' });
  });

  it('keeps a 200-character name and ignores a 201-character one entirely', () => {
    const ok = 'n'.repeat(200);
    const long = 'm'.repeat(201);
    const { data } = normalizeAnswers([
      [ok, 'kept'],
      [long, 'dropped'],
    ]);
    expect(data).toEqual({ [ok]: 'kept' });
  });

  it('measures the name after [] is removed, in code points', () => {
    const withSuffix = `${'n'.repeat(200)}[]`;
    const emoji = '😀'.repeat(200); // 400 UTF-16 units, 200 code points
    const { data } = normalizeAnswers([
      [withSuffix, 'a'],
      [emoji, 'b'],
      [`${emoji}x`, 'c'],
    ]);
    expect(data).toEqual({ ['n'.repeat(200)]: 'a', [emoji]: 'b' });
  });

  it('ignores empty names, including a bare []', () => {
    const { data } = normalizeAnswers([
      ['', 'a'],
      ['[]', 'b'],
      ['\u0000', 'c'],
      ['ok', 'd'],
    ]);
    expect(data).toEqual({ ok: 'd' });
  });

  it('strips null bytes from names but keeps them in values', () => {
    const { data } = normalizeAnswers([['na\u0000me', 'a\u0000b']]);
    expect(data).toEqual({ name: 'a\u0000b' });
  });

  it('stores constructor, toString and hasOwnProperty as ordinary answers', () => {
    const { data } = normalizeAnswers([
      ['constructor', 'c'],
      ['toString', 't'],
      ['hasOwnProperty', 'h'],
    ]);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['constructor', 'toString', 'hasOwnProperty']);
    expect(data.constructor).toBe('c');
    expect(JSON.parse(JSON.stringify(data))).toEqual({
      constructor: 'c',
      toString: 't',
      hasOwnProperty: 'h',
    });
  });

  it('takes `_views` (the page counted its view) as a special field, never an answer', () => {
    const { data, special } = normalizeAnswers([
      ['message', 'Hi'],
      ['_views', 'counted'],
    ]);
    expect(data).toEqual({ message: 'Hi' });
    expect(special.views).toBe('counted');
  });

  it('drops __proto__ as a special name without touching the prototype', () => {
    const { data, special } = normalizeAnswers([
      ['__proto__', '{"polluted":true}'],
      ['a', 'b'],
    ]);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['a']);
    expect(special).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('normalizeAnswers: the 50-field limit', () => {
  it('keeps 50 distinct names', () => {
    const { data } = normalizeAnswers(pairsOf(50));
    expect(Object.keys(data)).toHaveLength(50);
  });

  it('ignores the 51st distinct name onward', () => {
    const { data } = normalizeAnswers(pairsOf(52));
    expect(Object.keys(data)).toHaveLength(50);
    expect(data.f49).toBe('v49');
    expect(Object.hasOwn(data, 'f50')).toBe(false);
    expect(Object.hasOwn(data, 'f51')).toBe(false);
  });

  it('still joins repeats of a kept name after the limit is reached', () => {
    const { data } = normalizeAnswers([...pairsOf(50), ['extra', 'x'], ['f0', 'again']]);
    expect(data.f0).toBe('v0,again');
    expect(Object.hasOwn(data, 'extra')).toBe(false);
  });

  it('does not count special fields or ignored names toward the 50', () => {
    const { data, special } = normalizeAnswers([
      ['_gotcha', ''],
      ['_subject', 'Hi'],
      ['cf-turnstile-response', 'tok'],
      ['_unknown', 'x'],
      ['', 'x'],
      ['z'.repeat(201), 'x'],
      ...pairsOf(50),
    ]);
    expect(Object.keys(data)).toHaveLength(50);
    expect(special.subject).toBe('Hi');
  });
});

describe('normalizeAnswers: values', () => {
  it('keeps a 10,000-character value whole', () => {
    const value = 'a'.repeat(10_000);
    expect(normalizeAnswers([['m', value]]).data.m).toBe(value);
  });

  it('cuts a 10,001-character value to 10,000', () => {
    const { data } = normalizeAnswers([['m', 'a'.repeat(10_001)]]);
    expect(data.m).toHaveLength(10_000);
  });

  it('cuts on a code point boundary, never leaving a lone surrogate', () => {
    const value = `${'a'.repeat(9_999)}😀😀`;
    const cut = normalizeAnswers([['m', value]]).data.m!;
    expect(cut).toBe(`${'a'.repeat(9_999)}😀`);
    expect(cut.isWellFormed()).toBe(true);
  });

  it('counts 10,000 emoji as 10,000 characters', () => {
    const value = '😀'.repeat(10_000);
    expect(normalizeAnswers([['m', value]]).data.m).toBe(value);
    expect(normalizeAnswers([['m', `${value}😀`]]).data.m).toBe(value);
  });

  it('joins repeated names with commas in the order received, empty parts included', () => {
    const { data } = normalizeAnswers([
      ['c', 'a'],
      ['other', 'o'],
      ['c', ''],
      ['c', 'b'],
    ]);
    expect(data).toEqual({ c: 'a,,b', other: 'o' });
  });

  it('cuts the joined value at 10,000 too', () => {
    const { data } = normalizeAnswers([
      ['c', 'a'.repeat(6_000)],
      ['c', 'b'.repeat(6_000)],
    ]);
    expect(data.c).toBe(`${'a'.repeat(6_000)},${'b'.repeat(3_999)}`);
  });

  it('stores an empty answer as an empty string', () => {
    expect(normalizeAnswers([['name', '']]).data).toEqual({ name: '' });
  });

  it('replaces lone surrogates with U+FFFD', () => {
    const { data } = normalizeAnswers([['m', 'a\ud800b']]);
    expect(data.m).toBe('a\ufffdb');
  });
});

describe('normalizeAnswers: special fields', () => {
  it('reads every special field and stores none of them', () => {
    const { data, special } = normalizeAnswers([
      ['_gotcha', 'x'],
      ['_t', '1700000000000'],
      ['_redirect', 'https://example.com/thanks'],
      ['_subject', 'Hello'],
      ['_replyto', 'a@b.co'],
      ['_captcha', 'tok'],
      ['_other', 'y'],
      ['message', 'hi'],
    ]);
    expect(data).toEqual({ message: 'hi' });
    expect(special).toEqual({
      gotcha: 'x',
      renderedAt: '1700000000000',
      redirect: 'https://example.com/thanks',
      subject: 'Hello',
      replyTo: 'a@b.co',
      captchaToken: 'tok',
    });
  });

  it('takes the first non-empty captcha token from either name', () => {
    expect(
      normalizeAnswers([
        ['cf-turnstile-response', ''],
        ['_captcha', 'second'],
        ['cf-turnstile-response', 'third'],
      ]).special.captchaToken,
    ).toBe('second');
    expect(
      normalizeAnswers([
        ['cf-turnstile-response', 'first'],
        ['_captcha', 'second'],
      ]).special.captchaToken,
    ).toBe('first');
  });

  it('never stores the captcha token names, even when empty', () => {
    const { data, special } = normalizeAnswers([
      ['cf-turnstile-response', ''],
      ['a', 'b'],
    ]);
    expect(data).toEqual({ a: 'b' });
    expect(special.captchaToken).toBeUndefined();
  });

  it('lets a filled honeypot win over a blank one sent first', () => {
    expect(
      normalizeAnswers([
        ['_gotcha', ''],
        ['_gotcha', 'bot'],
      ]).special.gotcha,
    ).toBe('bot');
  });

  it('matches special names case-sensitively after [] removal', () => {
    const { data, special } = normalizeAnswers([
      ['_gotcha[]', 'x'],
      ['_ReplyTo', 'a@b.co'],
    ]);
    expect(special).toEqual({ gotcha: 'x' });
    expect(data).toEqual({});
  });
});

describe('isEmptySubmission', () => {
  it('is empty with no answers and no files', () => {
    expect(isEmptySubmission({}, 0)).toBe(true);
  });

  it('is empty when every answer is whitespace', () => {
    expect(isEmptySubmission({ a: '', b: '  \n\t', c: '\u00a0' }, 0)).toBe(true);
  });

  it('is not empty with one visible character', () => {
    expect(isEmptySubmission({ a: '', b: ' x ' }, 0)).toBe(false);
  });

  it('is not empty with a file and blank answers', () => {
    expect(isEmptySubmission({ a: '' }, 1)).toBe(false);
  });
});

describe('isBotByHoneypotOrTiming, at the default of the minFillTimeMs setting', () => {
  const now = 1_700_000_010_000;
  const MIN_FILL = SETTINGS.minFillTimeMs.default;

  it('takes 2 s, the product minimum, as the default fill time', () => {
    expect(MIN_FILL).toBe(2_000);
    expect(MIN_FILL).toBe(MIN_FILL_MS);
  });

  it('lets a post without special fields through', () => {
    expect(isBotByHoneypotOrTiming({}, now, MIN_FILL)).toBe(false);
  });

  it('drops a post with a filled honeypot', () => {
    expect(isBotByHoneypotOrTiming({ gotcha: 'x' }, now, MIN_FILL)).toBe(true);
    expect(isBotByHoneypotOrTiming({ gotcha: ' ' }, now, MIN_FILL)).toBe(true);
  });

  it('ignores an empty honeypot', () => {
    expect(isBotByHoneypotOrTiming({ gotcha: '' }, now, MIN_FILL)).toBe(false);
  });

  it('drops a post 1,999 ms after rendering and keeps one at 2,000 ms', () => {
    expect(isBotByHoneypotOrTiming({ renderedAt: String(now - 1_999) }, now, MIN_FILL)).toBe(true);
    expect(isBotByHoneypotOrTiming({ renderedAt: String(now - 2_000) }, now, MIN_FILL)).toBe(false);
  });

  it('keeps a post whose _t is in the future (a visitor clock that runs fast): no signal', () => {
    expect(isBotByHoneypotOrTiming({ renderedAt: String(now + 90_000) }, now, MIN_FILL)).toBe(
      false,
    );
    expect(isBotByHoneypotOrTiming({ renderedAt: String(now + 1) }, now, MIN_FILL)).toBe(false);
    expect(isBotByHoneypotOrTiming({ renderedAt: String(now) }, now, MIN_FILL)).toBe(true);
  });

  it('ignores a _t that is not a number', () => {
    expect(isBotByHoneypotOrTiming({ renderedAt: '{{ now }}' }, now, MIN_FILL)).toBe(false);
    expect(isBotByHoneypotOrTiming({ renderedAt: '   ' }, now, MIN_FILL)).toBe(false);
    expect(isBotByHoneypotOrTiming({ renderedAt: 'Infinity' }, now, MIN_FILL)).toBe(false);
  });

  it('drops sooner than the minimum it is given: a deployment may set another', () => {
    expect(isBotByHoneypotOrTiming({ renderedAt: String(now - 199) }, now, 200)).toBe(true);
    expect(isBotByHoneypotOrTiming({ renderedAt: String(now - 200) }, now, 200)).toBe(false);
  });

  it('accepts a _t with surrounding spaces', () => {
    expect(isBotByHoneypotOrTiming({ renderedAt: ` ${now - 500} ` }, now, MIN_FILL)).toBe(true);
  });
});

describe('cutToCodePoints', () => {
  it('leaves short strings alone', () => {
    expect(cutToCodePoints('abc', 3)).toBe('abc');
  });

  it('keeps a lone surrogate of the input as one code point', () => {
    expect(cutToCodePoints('\ud800abc', 2)).toBe('\ud800a');
  });
});
