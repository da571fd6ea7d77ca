import { describe, expect, it } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import {
  type BodyLimits,
  cleanFileName,
  MAX_BODY_PAIRS,
  type ParsedBody,
  parseMediaType,
  parseSubmitBody,
  REFUSED_FILE_TYPES,
  refusedFileReason,
} from '#http/submit/parse-body.ts';
import { type Rng, random } from '#test/support/seeded-random.ts';

const LIMITS: BodyLimits = {
  maxBodyBytes: 6_000_000,
  maxFileBytes: 1024 * 1024,
  maxFiles: 3,
  uploadsAllowed: true,
};
const BOUNDARY = '----formBoundary7MA4YWxk';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

type Part =
  | { name: string; value: string | Buffer }
  | { name: string; filename: string; type?: string; content: string | Buffer };

/** A multipart body as a browser sends it: CRLF lines, closing delimiter, UTF-8 headers. */
function multipart(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if ('filename' in part) {
      head += `; filename="${part.filename}"`;
      if (part.type !== undefined) head += `\r\nContent-Type: ${part.type}`;
    }
    chunks.push(Buffer.from(`${head}\r\n\r\n`));
    const content = 'filename' in part ? part.content : part.value;
    chunks.push(typeof content === 'string' ? Buffer.from(content) : content);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected the parse to reject');
}

const urlencoded = (text: string | Buffer, type = 'application/x-www-form-urlencoded') =>
  parseSubmitBody(type, typeof text === 'string' ? Buffer.from(text) : text, LIMITS);
const json = (text: string, type = 'application/json') =>
  parseSubmitBody(type, Buffer.from(text), LIMITS);
const multi = (parts: Part[], limits: Partial<BodyLimits> = {}) =>
  parseSubmitBody(MULTIPART, multipart(parts), { ...LIMITS, ...limits });

describe('content types', () => {
  it('accepts the three types in any case, with parameters and whitespace', async () => {
    expect(
      (await urlencoded('a=1', ' Application/X-WWW-Form-Urlencoded ; charset="UTF-8"')).pairs,
    ).toEqual([['a', '1']]);
    expect((await json('{"a":1}', 'APPLICATION/JSON;charset=utf-8')).pairs).toEqual([['a', '1']]);
    const body = multipart([{ name: 'a', value: '1' }]);
    const parsed = await parseSubmitBody(
      `Multipart/Form-Data ;  charset=utf-8 ; boundary="${BOUNDARY}"`,
      body,
      LIMITS,
    );
    expect(parsed.pairs).toEqual([['a', '1']]);
  });

  it.each([
    ['text/plain', 'a=1'],
    ['text/json', '{"a":1}'],
    ['application/ld+json', '{"a":1}'],
    ['application/xml', '<a/>'],
    ['multipart/mixed; boundary=x', '--x--'],
    ['application/x-www-form-urlencoded/extra', 'a=1'],
    ['', 'a=1'],
    ['garbage', 'a=1'],
  ])('refuses %j with 415 unsupported_media_type', async (type, body) => {
    const error = await rejection(parseSubmitBody(type, Buffer.from(body), LIMITS));
    expect([error.status, error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('refuses a missing content type, even with an empty body', async () => {
    const error = await rejection(parseSubmitBody(undefined, Buffer.alloc(0), LIMITS));
    expect([error.status, error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('refuses multipart without a usable boundary', async () => {
    for (const type of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=""',
      'multipart/form-data; boundary="a\\"b"',
      `multipart/form-data; boundary=${'x'.repeat(201)}`,
    ]) {
      const error = await rejection(parseSubmitBody(type, multipart([]), LIMITS));
      expect([error.status, error.code], type).toEqual([415, 'unsupported_media_type']);
    }
  });

  it('parses quoted parameters and keeps the first of a repeated one', () => {
    const parsed = parseMediaType('multipart/form-data; boundary="a;b \\"c"; boundary=second; x');
    expect(parsed?.essence).toBe('multipart/form-data');
    expect(parsed?.params.get('boundary')).toBe('a;b "c');
    expect(parseMediaType('text')).toBeUndefined();
    expect(parseMediaType('a/b/c')).toBeUndefined();
  });
});

describe('body size', () => {
  it('takes a body of exactly maxBodyBytes and refuses one byte more before parsing', async () => {
    const limits = { ...LIMITS, maxBodyBytes: 10 };
    const exact = await parseSubmitBody(
      'application/x-www-form-urlencoded',
      Buffer.from('a=12345678'),
      limits,
    );
    expect(exact.pairs).toEqual([['a', '12345678']]);
    // An unsupported type would be a 415; the size is checked first.
    const error = await rejection(parseSubmitBody('text/plain', Buffer.alloc(11), limits));
    expect([error.status, error.code]).toEqual([413, 'payload_too_large']);
    expect(error.message).toContain('10 bytes');
  });

  it('names the body limit in KB or MB', async () => {
    const kb = await rejection(
      parseSubmitBody('application/json', Buffer.alloc(204_801), {
        ...LIMITS,
        maxBodyBytes: 200 * 1024,
      }),
    );
    expect(kb.message).toContain('200 KB');
    const mb = await rejection(
      parseSubmitBody('application/json', Buffer.alloc(4_400_001), {
        ...LIMITS,
        maxBodyBytes: 4_400_000,
      }),
    );
    expect(mb.message).toContain('4.4 MB');
  });
});

describe('urlencoded bodies', () => {
  it('keeps repeated names as repeated pairs in body order', async () => {
    const parsed = await urlencoded('b=1&a=x+y&b=2&c=%E2%9C%93&b=3&empty=&novalue');
    expect(parsed).toEqual({
      pairs: [
        ['b', '1'],
        ['a', 'x y'],
        ['b', '2'],
        ['c', '✓'],
        ['b', '3'],
        ['empty', ''],
        ['novalue', ''],
      ],
      files: [],
    });
  });

  it('turns invalid UTF-8, raw or percent-encoded, into replacement characters', async () => {
    const raw = Buffer.concat([
      Buffer.from('a='),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('&b=%FF%C3'),
    ]);
    expect((await urlencoded(raw)).pairs).toEqual([
      ['a', '\uFFFD\uFFFD'],
      ['b', '\uFFFD\uFFFD'],
    ]);
  });

  it('keeps a leading question mark as part of the first name', async () => {
    expect((await urlencoded('?a=1')).pairs).toEqual([['?a', '1']]);
  });

  it('gives no pairs for an empty body', async () => {
    expect((await urlencoded('')).pairs).toEqual([]);
  });

  it(`stops after ${MAX_BODY_PAIRS} pairs`, async () => {
    const exact = Array.from({ length: MAX_BODY_PAIRS }, (_, i) => `n${i}=${i}`).join('&');
    expect((await urlencoded(exact)).pairs).toHaveLength(MAX_BODY_PAIRS);
    const parsed = await urlencoded(`&&${exact}&&over=1&more=2`);
    expect(parsed.pairs).toHaveLength(MAX_BODY_PAIRS);
    expect(parsed.pairs.at(-1)).toEqual([`n${MAX_BODY_PAIRS - 1}`, `${MAX_BODY_PAIRS - 1}`]);
  });
});

describe('JSON bodies', () => {
  it('flattens an object: scalars stringified, null empty, arrays one pair per element', async () => {
    const parsed = await json(
      JSON.stringify({
        name: 'Ada',
        age: 36,
        ok: true,
        off: false,
        none: null,
        tags: ['a', 2, false, null, { x: 1 }, [1, 2]],
        nested: { deep: [1, { y: 'z' }] },
        empty: [],
        emptyText: '',
      }),
    );
    expect(parsed).toEqual({
      pairs: [
        ['name', 'Ada'],
        ['age', '36'],
        ['ok', 'true'],
        ['off', 'false'],
        ['none', ''],
        ['tags', 'a'],
        ['tags', '2'],
        ['tags', 'false'],
        ['tags', ''],
        ['tags', '{"x":1}'],
        ['tags', '[1,2]'],
        ['nested', '{"deep":[1,{"y":"z"}]}'],
        ['emptyText', ''],
      ],
      files: [],
    });
  });

  it('accepts a byte order mark and an empty object', async () => {
    expect((await json('\uFEFF{"a":"b"}')).pairs).toEqual([['a', 'b']]);
    expect((await json('{}')).pairs).toEqual([]);
  });

  it.each([
    ['a top-level array', '[{"a":1}]'],
    ['a string', '"a"'],
    ['a number', '1'],
    ['null', 'null'],
    ['unparseable text', '{"a":'],
    ['an empty body', ''],
    ['two objects', '{}{}'],
  ])('refuses %s with 415', async (_what, text) => {
    const error = await rejection(json(text));
    expect([error.status, error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('refuses nesting too deep to re-serialise with a 415, not a stack overflow', async () => {
    const depth = 500_000;
    const error = await rejection(json(`{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`));
    expect([error.status, error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it(`stops after ${MAX_BODY_PAIRS} pairs, counting array elements`, async () => {
    const parsed = await json(
      JSON.stringify({ a: Array.from({ length: MAX_BODY_PAIRS - 1 }, () => 1), b: 2, c: 3 }),
    );
    expect(parsed.pairs).toHaveLength(MAX_BODY_PAIRS);
    expect(parsed.pairs.at(-1)).toEqual(['b', '2']);
  });
});

describe('multipart bodies', () => {
  it('reads text parts as UTF-8 and a file with its exact name, type, size and bytes', async () => {
    const content = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x0d, 0x0a, 0xff, 0x2d, 0x2d]);
    const parsed = await multi([
      { name: 'name', value: 'Zoë ✓' },
      { name: 'cv', filename: 'résumé.pdf', type: 'Application/PDF', content },
      { name: 'tag', value: 'a' },
      { name: 'tag', value: 'b' },
    ]);
    expect(parsed.pairs).toEqual([
      ['name', 'Zoë ✓'],
      ['tag', 'a'],
      ['tag', 'b'],
    ]);
    expect(parsed.files).toEqual([
      { field: 'cv', name: 'résumé.pdf', mime: 'application/pdf', size: 10, content },
    ]);
    expect(parsed.fileError).toBeUndefined();
  });

  it('decodes text parts as UTF-8 even when a part declares another charset', async () => {
    const body = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n`,
      ),
      Buffer.from('café'),
      Buffer.from([0xff]),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    expect((await parseSubmitBody(MULTIPART, body, LIMITS)).pairs).toEqual([['a', 'café\uFFFD']]);
  });

  it('reads a body whose first line is the delimiter and ignores preamble and epilogue', async () => {
    const body = Buffer.concat([
      Buffer.from('preamble text\r\n'),
      multipart([{ name: 'a', value: '1' }]),
      Buffer.from('epilogue'),
    ]);
    expect((await parseSubmitBody(MULTIPART, body, LIMITS)).pairs).toEqual([['a', '1']]);
  });

  it('ignores an unused file input and a zero-byte file', async () => {
    const parsed = await multi([
      { name: 'a', value: '1' },
      { name: 'upload', filename: '', type: 'application/octet-stream', content: '' },
      { name: 'other', filename: 'empty.txt', type: 'text/plain', content: '' },
    ]);
    expect(parsed).toEqual({ pairs: [['a', '1']], files: [] });
  });

  it('keeps the declared type without parameters, else octet-stream, and text/plain when none', async () => {
    const parsed = await multi([
      { name: 'a', filename: 'a.txt', type: 'text/plain; charset=utf-8', content: 'a' },
      { name: 'b', filename: 'b.bin', type: 'not a type', content: 'b' },
      { name: 'c', filename: 'c.txt', content: 'c' },
    ]);
    expect(parsed.files.map((file) => file.mime)).toEqual([
      'text/plain',
      'application/octet-stream',
      'text/plain',
    ]);
  });

  it('stores only the cleaned base name of a file', async () => {
    const parsed = await multi([
      { name: 'a', filename: 'C:\\Users\\me\\photo.jpg', type: 'image/jpeg', content: 'x' },
      { name: 'b', filename: '../../etc/passwd', type: 'text/plain', content: 'x' },
      { name: 'c', filename: 'dir/', type: 'text/plain', content: 'x' },
    ]);
    expect(parsed.files.map((file) => file.name)).toEqual(['photo.jpg', 'passwd', 'file']);
  });

  it('takes a file of exactly maxFileBytes and refuses one byte more with 413 file_too_large', async () => {
    const limits = { maxFileBytes: 1024 * 1024 };
    const exact = await multi(
      [{ name: 'f', filename: 'a.bin', type: 'image/png', content: Buffer.alloc(1024 * 1024, 1) }],
      limits,
    );
    expect(exact.files[0]?.size).toBe(1024 * 1024);
    expect(exact.fileError).toBeUndefined();
    const over = await multi(
      [
        {
          name: 'f',
          filename: 'big.bin',
          type: 'image/png',
          content: Buffer.alloc(1024 * 1024 + 1, 1),
        },
        { name: 'after', value: 'still read' },
      ],
      limits,
    );
    expect(over.files).toEqual([]);
    expect(over.pairs).toEqual([['after', 'still read']]);
    expect([over.fileError?.status, over.fileError?.code]).toEqual([413, 'file_too_large']);
    expect(over.fileError?.message).toContain('1 MB');
  });

  it('names a non-whole file limit in decimal MB', async () => {
    const over = await multi([{ name: 'f', filename: 'a.bin', content: Buffer.alloc(4_400_001) }], {
      maxFileBytes: 4_400_000,
    });
    expect(over.fileError?.message).toContain('4.4 MB');
  });

  it('takes maxFiles non-empty files and refuses one more with 413 too_many_files', async () => {
    const file = (i: number): Part => ({ name: 'f', filename: `${i}.txt`, content: `${i}` });
    const emptyInput: Part = { name: 'g', filename: '', content: '' };
    const exact = await multi([file(1), emptyInput, file(2), emptyInput, file(3)]);
    expect(exact.files.map((f) => f.name)).toEqual(['1.txt', '2.txt', '3.txt']);
    expect(exact.fileError).toBeUndefined();
    const over = await multi([file(1), file(2), file(3), file(4)]);
    expect(over.files).toEqual([]);
    expect([over.fileError?.status, over.fileError?.code]).toEqual([413, 'too_many_files']);
  });

  it('refuses a file with 400 uploads_disabled when uploads are off, but not an unused input', async () => {
    const off = { uploadsAllowed: false };
    const unused = await multi(
      [
        { name: 'a', value: '1' },
        { name: 'f', filename: '', type: 'application/octet-stream', content: '' },
      ],
      off,
    );
    expect(unused).toEqual({ pairs: [['a', '1']], files: [] });
    for (const part of [
      { name: 'f', filename: 'a.txt', content: 'x' },
      { name: 'f', filename: 'a.txt', content: '' },
      { name: 'f', filename: '', content: 'content without a name' },
    ]) {
      const parsed = await multi([part, { name: 'a', value: '1' }], off);
      expect(parsed.files).toEqual([]);
      expect(parsed.pairs).toEqual([['a', '1']]);
      expect([parsed.fileError?.status, parsed.fileError?.code]).toEqual([400, 'uploads_disabled']);
    }
  });

  it.each([
    ['an .exe name', 'setup.exe', 'application/octet-stream', 'hello'],
    ['an upper-case name with trailing dots', 'SETUP.EXE. .', 'application/octet-stream', 'hi'],
    ['a double extension', 'invoice.pdf.js', 'application/pdf', 'hello'],
    ['an .svg name', 'logo.svg', 'image/png', '<svg/>'],
    ['a declared HTML type', 'page.txt', 'text/html', '<p>'],
    ['MZ magic under a harmless name', 'notes.txt', 'text/plain', 'MZ\u0090\u0000rest'],
    ['ELF magic', 'data.bin', 'application/octet-stream', '\u007fELF\u0002'],
    ['a shebang', 'readme.txt', 'text/plain', '#!/bin/sh\nrm -rf /'],
  ])('refuses %s with 415 file_type_not_allowed', async (_what, filename, type, content) => {
    const parsed = await multi([
      { name: 'f', filename, type, content: Buffer.from(content, 'latin1') },
      { name: 'a', value: '1' },
    ]);
    expect(parsed.files).toEqual([]);
    expect(parsed.pairs).toEqual([['a', '1']]);
    expect([parsed.fileError?.status, parsed.fileError?.code]).toEqual([
      415,
      'file_type_not_allowed',
    ]);
  });

  it('refuses Mach-O magic even when it arrives split across write slices', async () => {
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="x.dat"\r\n\r\n`,
    );
    // Pad with a text part so the file's first byte is the last byte of the first 64 KB slice.
    const paddingPart = (size: number) =>
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="p"\r\n\r\n${'p'.repeat(size)}\r\n`,
      );
    const fixed = paddingPart(0).length;
    const padding = paddingPart(64 * 1024 - 1 - head.length - fixed);
    const body = Buffer.concat([
      padding,
      head,
      Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 1, 2, 3]),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    expect(body.indexOf(Buffer.from([0xcf, 0xfa]))).toBe(64 * 1024 - 1);
    const parsed = await parseSubmitBody(MULTIPART, body, LIMITS);
    expect(parsed.fileError?.code).toBe('file_type_not_allowed');
  });

  it('accepts a file shorter than the sniffed prefix', async () => {
    const parsed = await multi([{ name: 'f', filename: 'a.txt', content: 'M' }]);
    expect(parsed.files.map((file) => file.content.toString())).toEqual(['M']);
  });

  it('keeps the first file problem and still reads every text part after a refused 5 MB file', async () => {
    const parsed = await multi(
      [
        { name: 'f', filename: 'tool.exe', content: Buffer.alloc(5_000_000, 0x41) },
        { name: 'g', filename: 'other.txt', content: Buffer.alloc(500_000, 0x41) },
        { name: '_gotcha', value: 'bot' },
      ],
      { maxFileBytes: 1024 * 1024 },
    );
    expect(parsed.fileError?.code).toBe('file_type_not_allowed');
    expect(parsed.pairs).toEqual([['_gotcha', 'bot']]);
    expect(parsed.files).toEqual([]);
  });

  it('keeps the first 40,004 bytes of a long text value, whole characters intact', async () => {
    const parsed = await multi([{ name: 'long', value: '€'.repeat(20_000) }]);
    const value = parsed.pairs[0]?.[1] ?? '';
    expect(value.startsWith('€'.repeat(13_334))).toBe(true);
    expect(Buffer.byteLength(value.replace(/\uFFFD/g, ''))).toBeLessThanOrEqual(40_004);
  });

  it('drops text parts without a name', async () => {
    const body = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`,
    );
    expect((await parseSubmitBody(MULTIPART, body, LIMITS)).pairs).toEqual([['a', '1']]);
  });

  it.each([
    [
      'a missing closing delimiter',
      (b: Buffer) => b.subarray(0, b.length - `--${BOUNDARY}--\r\n`.length),
    ],
    ['a body cut inside a file', (b: Buffer) => b.subarray(0, 120)],
    ['another boundary', () => multipart([{ name: 'a', value: '1' }], 'otherBoundary')],
    ['an empty body', () => Buffer.alloc(0)],
    ['plain text', () => Buffer.from('a=1&b=2')],
  ])('refuses %s with 415 unsupported_media_type', async (_what, mangle) => {
    const body = mangle(
      multipart([
        { name: 'a', value: '1' },
        { name: 'f', filename: 'a.txt', content: 'x'.repeat(200) },
      ]),
    );
    const error = await rejection(parseSubmitBody(MULTIPART, body, LIMITS));
    expect([error.status, error.code, error.message]).toEqual([
      415,
      'unsupported_media_type',
      'The multipart body could not be read',
    ]);
  });
});

describe('file checks', () => {
  it('refuses by extension, declared type or first bytes, and lets ordinary files through', () => {
    expect(refusedFileReason('a.PS1', 'text/plain')).toContain('.ps1');
    expect(refusedFileReason('a.pdf', 'Image/SVG+XML')).toContain('image/svg+xml');
    expect(refusedFileReason('a', 'application/octet-stream', Buffer.from('MZ'))).toContain(
      'Windows',
    );
    expect(
      refusedFileReason('a.class', 'x/y', Buffer.from([0xca, 0xfe, 0xba, 0xbe])),
    ).toBeDefined();
    expect(refusedFileReason('photo.jpg', 'image/jpeg', Buffer.from([0xff, 0xd8, 0xff]))).toBe(
      undefined,
    );
    expect(refusedFileReason('exe', 'text/plain', Buffer.from('M'))).toBeUndefined();
    expect(refusedFileReason('report.exe.pdf', 'application/pdf')).toBeUndefined();
  });

  it('refuses every program and script extension and type the product promises to refuse', () => {
    const promised = `exe dll com bat cmd msi scr pif cpl jar js mjs vbs vbe wsf wsh ps1 psm1 sh
      bash app dmg pkg deb rpm apk html htm xhtml svg php py pl rb`.split(/\s+/);
    for (const extension of promised) {
      expect(REFUSED_FILE_TYPES.extensions, extension).toContain(extension);
      expect(refusedFileReason(`a.${extension}`, 'text/plain'), extension).toBeDefined();
    }
    for (const type of [
      'application/x-msdownload',
      'application/x-sh',
      'text/html',
      'image/svg+xml',
      'application/javascript',
      'text/javascript',
      'application/x-executable',
    ]) {
      expect(refusedFileReason('a.dat', type), type).toBeDefined();
    }
  });

  it('cleans file names', () => {
    expect(cleanFileName('a\u0000b\u001f\u007fc.txt')).toBe('abc.txt');
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    // Hidden by category, not by a hand list: the Arabic letter mark, zero-width space,
    // byte order mark, word joiner, soft hyphen, line separator and isolates.
    expect(cleanFileName('a\u061Cb\u200Bc\uFEFFd\u2060e\u00ADf\u2028g\u2067h.txt')).toBe(
      'abcdefgh.txt',
    );
    expect(cleanFileName('\u200B\uFEFF')).toBe('file');
    expect(cleanFileName('résumé 履歴書.pdf')).toBe('résumé 履歴書.pdf');
    expect(cleanFileName('  ..  ')).toBe('file');
    expect(cleanFileName('x\\')).toBe('file');
    const long = `${'n'.repeat(300)}.pdf`;
    expect(cleanFileName(long)).toBe(`${'n'.repeat(251)}.pdf`);
    expect(cleanFileName('n'.repeat(255))).toHaveLength(255);
    expect(Array.from(cleanFileName('😀'.repeat(300)))).toHaveLength(255);
  });
});

describe('any input', () => {
  const TYPES = [
    undefined,
    'application/x-www-form-urlencoded',
    'application/json',
    'multipart/form-data',
    'text/plain',
    ';;;',
    'multipart/form-data; boundary="',
  ];

  function randomInput(random: Rng) {
    const boundary = `b${random.int(1000)}`;
    const mode = random.int(4);
    if (mode === 0) {
      return { type: random.pick(TYPES), body: random.bytes(random.int(300)) };
    }
    const valid = multipart(
      [
        { name: 'a', value: random.bytes(random.int(50)) },
        {
          name: random.pick(['f', '', 'x"y']),
          filename: random.pick(['a.txt', '', 'a.exe', '../x']),
          type: random.pick(['text/plain', 'bad', 'application/octet-stream']),
          // Now and then a file that spans several 64 KB write slices.
          content:
            random.next() < 0.05 ? Buffer.alloc(150_000, 0x61) : random.bytes(random.int(200)),
        },
        { name: 'b', value: `--${boundary}` },
      ],
      boundary,
    );
    const type = `multipart/form-data; boundary=${random.next() < 0.9 ? boundary : `c${boundary}`}`;
    if (mode === 1) return { type, body: valid.subarray(0, random.int(valid.length + 1)) };
    const body = Buffer.from(valid);
    for (let flips = random.int(8); flips > 0; flips -= 1) {
      body[random.int(body.length)] = random.pick([0x0d, 0x0a, 0x2d, 0x22, 0x3b, random.int(256)]);
    }
    if (mode === 2) return { type, body };
    return { type: random.pick(TYPES.slice(1, 3)), body };
  }

  it('resolves or rejects with a ServiceError for 500 random bodies, never hanging', async () => {
    const rng = random(20240611);
    const outcomes = { resolved: 0, rejected: 0 };
    for (let i = 0; i < 500; i += 1) {
      const { type, body } = randomInput(rng);
      const limits = {
        maxBodyBytes: rng.next() < 0.05 ? 10 : 200_000,
        maxFileBytes: rng.pick([1, 100, 200_000]),
        maxFiles: rng.int(3),
        uploadsAllowed: rng.next() < 0.5,
      };
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<'hung'>((resolve) => {
        timer = setTimeout(() => resolve('hung'), 2000);
      });
      const outcome = await Promise.race([
        parseSubmitBody(type, body, limits).then(
          (parsed: ParsedBody) => parsed,
          (error: unknown) => error,
        ),
        hung,
      ]);
      clearTimeout(timer);
      const context = `case ${i}: ${type} ${body.toString('latin1')}`;
      expect(outcome, context).not.toBe('hung');
      if (outcome instanceof Error) {
        expect(outcome, context).toBeInstanceOf(ServiceError);
        expect([413, 415], context).toContain((outcome as ServiceError).status);
        outcomes.rejected += 1;
      } else {
        expect(Array.isArray((outcome as ParsedBody).pairs), context).toBe(true);
        outcomes.resolved += 1;
      }
    }
    // Both paths must actually be exercised for the run to mean anything.
    expect(outcomes.resolved).toBeGreaterThan(50);
    expect(outcomes.rejected).toBeGreaterThan(50);
  });
});
