import { describe, expect, it } from 'vitest';
import { addressesOf, emailHash, normalAddress } from '#domain/email-index.ts';
import { plausibleAddress } from '#domain/email-messages.ts';
import { duplicateFingerprint } from '#domain/spam-rules.ts';
import { withoutInvisibleCharacters } from '#domain/visible-text.ts';

const SECRET = 'a-keyed-hash-secret-of-enough-length-0123456789';

/** Characters that show nothing: zero-width space, soft hyphen, word joiner, LTR and RTL marks, BOM. */
const INVISIBLE = ['\u200B', '\u00AD', '\u2060', '\u200E', '\u200F', '\uFEFF', '\u200D', '\u202E'];

describe('addresses with invisible characters (docs/privacy.md#how-a-person-is-found)', () => {
  for (const char of INVISIBLE) {
    const name = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    for (const [where, typed] of [
      ['before', `${char}Ada@Example.com`],
      ['after', `ada@example.com${char}`],
      ['inside', `ada${char}@example.com`],
    ] as const) {
      it(`${name} ${where} the address is indexed as the plain address`, () => {
        expect(normalAddress(typed)).toBe('ada@example.com');
        expect(addressesOf({ email: typed }, undefined)).toEqual(['ada@example.com']);
        expect(addressesOf({}, typed)).toEqual(['ada@example.com']);
        expect(emailHash(SECRET, 'team-1', typed)).toBe(
          emailHash(SECRET, 'team-1', 'ada@example.com'),
        );
      });
    }
    it(`${name} is read as nothing by the mail path and the duplicate check alike`, () => {
      expect(plausibleAddress(`${char}ada@example.com`)).toBe('ada@example.com');
      expect(plausibleAddress(`ada@example.com${char}`)).toBe('ada@example.com');
      expect(
        duplicateFingerprint('f', 'visitor-1', { email: `${char}ada@example.com${char}` }),
      ).toBe(duplicateFingerprint('f', 'visitor-1', { email: 'ada@example.com' }));
    });
  }

  it('one rule: the invisible characters are what withoutInvisibleCharacters removes, white space kept', () => {
    expect(withoutInvisibleCharacters('a\u200Bb\u00ADc\u2060d\u200Ee\u0000f')).toBe('abcdef');
    expect(withoutInvisibleCharacters('a b\tc\nd')).toBe('a b\tc\nd');
  });

  it('an address that stays no address once folded is not indexed', () => {
    expect(addressesOf({ a: '\u200B', b: 'ada\u200B @example.com' })).toEqual([]);
  });
});
