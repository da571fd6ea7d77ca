import { describe, expect, it } from 'vitest';
import { encodeMetadata, nameForMetadata } from '#domain/direct-uploads.ts';
import { headerValue } from '#domain/email-messages.ts';
import { attachmentDisposition } from '#domain/uploads.ts';
import { parseWellFormedJson } from '#domain/well-formed-json.ts';

describe('text that is not well formed (lone surrogates) never reaches an encoder', () => {
  it('JSON bodies come out with every string and key well formed', () => {
    const parsed = parseWellFormedJson(
      '{"name":"a\\ud800b","list":["\\udfff",{"k\\ud801":"v"}],"ok":"\\ud83d\\ude00"}',
    );
    expect(parsed).toEqual({
      name: 'a\ufffdb',
      list: ['\ufffd', { 'k\ufffd': 'v' }],
      ok: '😀',
    });
  });

  it('S3 metadata, download names and email headers take them as U+FFFD instead of throwing', () => {
    expect(() => encodeURIComponent('a\ud800b.txt')).toThrow(URIError);
    expect(encodeMetadata('a\ud800b.txt')).toBe('a%EF%BF%BDb.txt');
    expect(nameForMetadata('a\ud800b.txt')).toBe('a\ud800b.txt');
    expect(attachmentDisposition('a\ud800b.txt')).toContain("filename*=UTF-8''a%EF%BF%BDb.txt");
    expect(headerValue('Hi \udc00 there')).toBe('Hi \ufffd there');
  });
});
