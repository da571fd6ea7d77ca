import { MessageRejected, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { describe, expect, it } from 'vitest';
import { classifySendError, encodedWords, fromAddress } from '#aws/email.ts';

/** An error shaped as the SDK throws them: a name, a fault side and the HTTP metadata. */
function sdkError(name: string, status?: number, fault: 'client' | 'server' = 'client') {
  return Object.assign(new Error(`${name} happened`), {
    name,
    $fault: fault,
    $metadata: status === undefined ? { attempts: 3 } : { httpStatusCode: status, attempts: 1 },
  });
}

/** RFC 2047 B words back to text, as a mail reader does (the whitespace between words goes). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/g, (_word, data: string) =>
      Buffer.from(data, 'base64').toString('utf8'),
    );
}

describe('classifySendError', () => {
  it.each([
    ['MessageRejected', 400],
    ['MailFromDomainNotVerifiedException', 400],
    ['NotFoundException', 404],
    ['BadRequestException', 400],
    ['ValidationException', 400],
    ['AccountSuspendedException', 400],
  ])('%s is permanent', (name, status) => {
    expect(classifySendError(sdkError(name, status))).toBe('permanent');
  });

  it.each([
    ['TooManyRequestsException', 429],
    ['LimitExceededException', 400],
    ['SendingPausedException', 400],
    ['ThrottlingException', 400],
    ['Throttling', 400],
    ['InternalServiceErrorException', 500],
    ['ServiceUnavailable', 503],
    ['RequestTimeout', 408],
    ['TimeoutError', undefined],
  ])('%s is transient', (name, status) => {
    expect(classifySendError(sdkError(name, status))).toBe('transient');
  });

  it('reads the exception classes the SDK itself throws', () => {
    const $metadata = { httpStatusCode: 400 };
    expect(
      classifySendError(
        new MessageRejected({ message: 'Email address is not verified.', $metadata }),
      ),
    ).toBe('permanent');
    expect(
      classifySendError(
        new TooManyRequestsException({ message: 'Slow down', $metadata: { httpStatusCode: 429 } }),
      ),
    ).toBe('transient');
  });

  it('falls back on the HTTP status: 5xx, 408, 429, 401 and 403 are transient, other 4xx permanent', () => {
    expect(classifySendError(sdkError('SomethingNew', 500, 'server'))).toBe('transient');
    expect(classifySendError(sdkError('SomethingNew', 502))).toBe('transient');
    expect(classifySendError(sdkError('SomethingNew', 408))).toBe('transient');
    expect(classifySendError(sdkError('SomethingNew', 429))).toBe('transient');
    expect(classifySendError(sdkError('AccessDeniedException', 403))).toBe('transient');
    expect(classifySendError(sdkError('UnrecognizedClientException', 401))).toBe('transient');
    expect(classifySendError(sdkError('SomethingNew', 400))).toBe('permanent');
    expect(classifySendError(sdkError('SomethingNew', 413))).toBe('permanent');
  });

  it('trusts the SDK when it marks an error retryable or a server fault', () => {
    const retryable = Object.assign(sdkError('SomethingNew', 400), {
      $retryable: { throttling: true },
    });
    expect(classifySendError(retryable)).toBe('transient');
    expect(classifySendError(sdkError('SomethingNew', undefined, 'server'))).toBe('transient');
  });

  it('treats network errors and anything unknown as transient', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(classifySendError(reset)).toBe('transient');
    expect(classifySendError(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }))).toBe(
      'transient',
    );
    expect(classifySendError(new Error('Could not load credentials from any providers'))).toBe(
      'transient',
    );
    expect(classifySendError(undefined)).toBe('transient');
    expect(classifySendError('boom')).toBe('transient');
  });
});

describe('fromAddress', () => {
  it('quotes a plain ASCII name', () => {
    expect(fromAddress('Acme Forms, Inc.', 'forms@example.com')).toBe(
      '"Acme Forms, Inc." <forms@example.com>',
    );
  });

  it('gives the bare address when the name is empty', () => {
    expect(fromAddress('  \r\n ', 'forms@example.com')).toBe('forms@example.com');
  });

  it('encodes a UTF-8 name as RFC 2047 words outside quotes', () => {
    const from = fromAddress('Zoë’s Café 🍰', 'forms@example.com');
    expect(from).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <forms@example\.com>$/);
    expect(decodeWords(from)).toBe('Zoë’s Café 🍰 <forms@example.com>');
    // What SES requires: the whole value is 7-bit ASCII.
    expect(from).toMatch(/^[\x20-\x7e]+$/);
  });

  it('encodes names holding quotes, backslashes or =? rather than escaping them', () => {
    for (const name of ['Say "hi"', 'back\\slash', 'not =?UTF-8?B?eA==?= a word']) {
      const from = fromAddress(name, 'forms@example.com');
      expect(from.startsWith('=?UTF-8?B?'), from).toBe(true);
      expect(decodeWords(from)).toBe(`${name} <forms@example.com>`);
    }
  });

  it('cannot be made to end the header', () => {
    const from = fromAddress('Forms\r\nBcc: victim@example.com', 'forms@example.com');
    expect(from).toBe('"Forms Bcc: victim@example.com" <forms@example.com>');
  });
});

describe('encodedWords', () => {
  it('keeps every word within 75 characters and never splits a character', () => {
    const name = `${'é'.repeat(40)}${'🍰'.repeat(30)}`;
    const encoded = encodedWords(name);
    const words = encoded.split(' ');
    expect(words.length).toBeGreaterThan(1);
    for (const word of words) {
      expect(word.length).toBeLessThanOrEqual(75);
      const bytes = Buffer.from(word.slice(10, -2), 'base64');
      // Each word decodes on its own: no replacement character from a split sequence.
      expect(bytes.toString('utf8')).not.toContain('\uFFFD');
    }
    expect(decodeWords(encoded)).toBe(name);
  });
});
