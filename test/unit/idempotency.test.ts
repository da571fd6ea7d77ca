import { describe, expect, it } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import { idempotencyKeyHash, idempotencyKeyOf, postFingerprint } from '#domain/idempotency.ts';

const refused = (header: string) => {
  try {
    idempotencyKeyOf(header);
  } catch (error) {
    return error instanceof ServiceError ? `${error.status} ${error.code}` : 'other';
  }
  return 'accepted';
};

describe('the Idempotency-Key header (docs/submit.md#idempotency-key)', () => {
  it('no header is no key', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
  });

  it('takes 1 to 255 visible ASCII characters, bare or as the draft’s quoted sf-string', () => {
    expect(idempotencyKeyOf('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(idempotencyKeyOf('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(idempotencyKeyOf('  x  ')).toBe('x');
    expect(idempotencyKeyOf('k'.repeat(255))).toHaveLength(255);
    expect(idempotencyKeyOf(`"${'k'.repeat(255)}"`)).toHaveLength(255);
    expect(idempotencyKeyOf('"a\\"b\\\\c"')).toBe('a"b\\c');
    expect(idempotencyKeyOf('!~{}')).toBe('!~{}');
  });

  it('refuses the header sent twice, even with the same key twice (docs/submit.md#idempotency-key)', () => {
    for (const values of [
      ['a', 'b'],
      ['a', 'a'],
      ['a', ''],
    ]) {
      expect(() => idempotencyKeyOf(values)).toThrow(/sent once/);
    }
    expect(idempotencyKeyOf(['a'])).toBe('a');
    expect(idempotencyKeyOf([])).toBeUndefined();
  });

  it('refuses anything else with 400 invalid_request', () => {
    for (const bad of [
      '',
      '   ',
      '""',
      'k'.repeat(256),
      `"${'k'.repeat(256)}"`,
      'two words',
      'a, b',
      '"a", "b"',
      '"unterminated',
      '"a"b',
      '"bad\\escape"',
      '"in side"',
      'tab\there',
      'café',
      'line\nbreak',
    ]) {
      expect(refused(bad), JSON.stringify(bad)).toBe('400 invalid_request');
    }
  });

  it('stores a key as its SHA-256, never in clear', () => {
    expect(idempotencyKeyHash('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('the fingerprint of a post', () => {
  const file = (content: string) => ({
    field: 'cv',
    name: 'cv.pdf',
    mime: 'application/pdf',
    content: Buffer.from(content),
  });

  it('is the same for the same answers and files, whatever the encoding was', () => {
    expect(postFingerprint([['a', '1']], [file('x')])).toBe(
      postFingerprint([['a', '1']], [file('x')]),
    );
  });

  it('differs for another answer, another order, or another file', () => {
    const base = postFingerprint(
      [
        ['a', '1'],
        ['b', '2'],
      ],
      [file('x')],
    );
    expect(
      postFingerprint(
        [
          ['a', '1'],
          ['b', '3'],
        ],
        [file('x')],
      ),
    ).not.toBe(base);
    expect(
      postFingerprint(
        [
          ['b', '2'],
          ['a', '1'],
        ],
        [file('x')],
      ),
    ).not.toBe(base);
    expect(
      postFingerprint(
        [
          ['a', '1'],
          ['b', '2'],
        ],
        [file('y')],
      ),
    ).not.toBe(base);
    expect(
      postFingerprint(
        [
          ['a', '1'],
          ['b', '2'],
        ],
        [],
      ),
    ).not.toBe(base);
    // A name and a value cannot trade places across the boundary of two answers.
    expect(postFingerprint([['a', 'b=c']], [])).not.toBe(postFingerprint([['a=b', 'c']], []));
  });
});
