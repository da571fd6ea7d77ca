import type { Readable } from 'node:stream';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { ServiceError } from '#domain/errors.ts';
import { withoutHiddenCharacters } from '#domain/visible-text.ts';
import type { BodyLimits, ParsedBody, ReceivedFile } from './body.ts';

/** Programs and scripts: refused by the last extension of the name, or by the declared type. */
export const REFUSED_FILE_TYPES: {
  extensions: readonly string[];
  mimeTypes: readonly string[];
} = {
  extensions: words(`
    app apk bash bat cmd com cpl deb dll dmg exe hta htm html jar js jse lnk mht mhtml mjs msi
    msp phar php phtml pif pkg pl ps1 psm1 py rb reg rpm scr sh svg vbe vbs wsf wsh xht xhtml
  `),
  mimeTypes: words(`
    application/ecmascript application/hta application/java-archive application/javascript
    application/vnd.android.package-archive application/vnd.microsoft.portable-executable
    application/x-apple-diskimage application/x-bat application/x-debian-package
    application/x-dosexec application/x-elf application/x-executable application/x-java-archive
    application/x-javascript application/x-mach-binary application/x-ms-installer
    application/x-msdos-program application/x-msdownload application/x-msi application/x-perl
    application/x-php application/x-python application/x-rpm application/x-ruby application/x-sh
    application/x-sharedlib application/x-shellscript application/xhtml+xml image/svg+xml
    text/ecmascript text/html text/javascript text/x-perl text/x-php text/x-python text/x-ruby
    text/x-sh text/x-shellscript
  `),
};

function words(text: string): string[] {
  return text.trim().split(/\s+/);
}

const REFUSED_EXTENSIONS: ReadonlySet<string> = new Set(REFUSED_FILE_TYPES.extensions);
const REFUSED_MIME_TYPES: ReadonlySet<string> = new Set(REFUSED_FILE_TYPES.mimeTypes);

/** First bytes of executables, whatever the name says. */
const EXECUTABLE_MAGIC: ReadonlyArray<{ bytes: readonly number[]; kind: string }> = [
  { bytes: [0x4d, 0x5a], kind: 'a Windows program' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: 'a Linux program' },
  { bytes: [0x23, 0x21], kind: 'a script' },
  { bytes: [0xfe, 0xed, 0xfa, 0xce], kind: 'a macOS program' },
  { bytes: [0xfe, 0xed, 0xfa, 0xcf], kind: 'a macOS program' },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], kind: 'a macOS program' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], kind: 'a macOS program' },
  // Universal macOS binaries; Java class files share this magic and are refused too.
  { bytes: [0xca, 0xfe, 0xba, 0xbe], kind: 'a program' },
  { bytes: [0xca, 0xfe, 0xba, 0xbf], kind: 'a program' },
];
const SNIFF_BYTES = 4;

/**
 * Why a file may not be uploaded, or undefined when it may: a refused extension (the last one,
 * ignoring the trailing dots and spaces Windows drops), a refused declared type, or first
 * bytes that are an executable or a `#!` script.
 */
export function refusedFileReason(
  name: string,
  mime: string,
  firstBytes?: Uint8Array,
): string | undefined {
  const extension = extensionOf(name);
  if (extension !== undefined && REFUSED_EXTENSIONS.has(extension)) {
    return `.${extension} files are not accepted`;
  }
  const type = mime.toLowerCase();
  if (REFUSED_MIME_TYPES.has(type)) return `${type} files are not accepted`;
  if (firstBytes === undefined) return undefined;
  const magic = EXECUTABLE_MAGIC.find(({ bytes }) =>
    bytes.every((byte, index) => firstBytes[index] === byte),
  );
  return magic ? `the file is ${magic.kind}` : undefined;
}

function extensionOf(name: string): string | undefined {
  const trimmed = name.toLowerCase().replace(/[. ]+$/, '');
  const dot = trimmed.lastIndexOf('.');
  return dot === -1 ? undefined : trimmed.slice(dot + 1);
}

const NAME_MAX_CHARS = 255;
const KEPT_EXTENSION_MAX_CHARS = 16;

/**
 * The stored file name: base name only (both `/` and `\` end a path), without the hidden
 * characters (controls, bidi controls that disguise `gpj.exe` as `exe.jpg`, zero-width and
 * other format characters, line separators), trimmed, at most 255
 * characters (a cut keeps a short extension), and `file` when nothing is left.
 */
export function cleanFileName(raw: string): string {
  const base = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
  const visible = withoutHiddenCharacters(base).trim();
  const chars = Array.from(visible);
  let name = visible;
  if (chars.length > NAME_MAX_CHARS) {
    const dot = visible.lastIndexOf('.');
    const extension = dot === -1 ? '' : visible.slice(dot);
    const kept = extension.length <= KEPT_EXTENSION_MAX_CHARS ? Array.from(extension) : [];
    name = [...chars.slice(0, NAME_MAX_CHARS - kept.length), ...kept].join('');
  }
  return name === '' || name === '.' || name === '..' ? 'file' : name;
}

const MIME_SHAPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The part's declared type (busboy already dropped parameters), or octet-stream when unusable. */
function storedMime(declared: string | undefined): string {
  const type = (declared ?? '').trim().toLowerCase();
  return MIME_SHAPE.test(type) ? type : 'application/octet-stream';
}

/** Bytes written to busboy at a time, so a refusal stops the work before the rest is fed. */
const SLICE_BYTES = 64 * 1024;
/**
 * Bytes kept per text value: the domain cuts values at 10,000 characters, and a character is
 * at most 4 UTF-8 bytes, so nothing that survives the cut is lost.
 */
const FIELD_VALUE_MAX_BYTES = 10_001 * 4;
const FIELD_NAME_MAX_CHARS = 1000;
/** Parts beyond this are skipped: enough for every answer plus many empty file inputs. */
const PARTS_MAX = 2000;
/** Only a deadlock in the parser could reach this; it turns a hung request into a 415. */
const PARSE_DEADLINE_MS = 10_000;

const unreadable = () =>
  new ServiceError(415, 'unsupported_media_type', 'The multipart body could not be read');

/**
 * Reads a multipart/form-data body with busboy. Text parts (no `filename` parameter) become
 * pairs decoded as UTF-8 whatever charset the part declares. Parts with a `filename` are files:
 * empty ones (what a browser sends for an unused file input, and zero-byte files) are ignored;
 * the others are checked while they stream and the first problem lands in `fileError`, with
 * `files` then empty. From then on no file bytes are kept, but text parts are still read:
 * scanning the rest of a 4.4 MB body costs a few milliseconds. Malformed multipart
 * (no closing boundary, boundary not found, cut-off part) rejects with 415.
 */
export function readMultipart(
  boundary: string,
  body: Buffer,
  limits: BodyLimits,
  maxPairs: number,
): Promise<ParsedBody> {
  const pairs: Array<[string, string]> = [];
  const files: ReceivedFile[] = [];
  let fileError: ServiceError | undefined;
  let filesWithContent = 0;

  const noteFileError = (error: ServiceError) => {
    fileError ??= error;
  };

  const readText = (name: string | undefined, stream: Readable) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    stream.on('data', (chunk: Buffer) => {
      if (kept >= FIELD_VALUE_MAX_BYTES) return;
      // Busboy may hand out views of a buffer it reuses, so kept bytes are copied.
      const part = Buffer.from(chunk.subarray(0, FIELD_VALUE_MAX_BYTES - kept));
      chunks.push(part);
      kept += part.length;
    });
    stream.on('end', () => {
      if (name === undefined || pairs.length >= maxPairs) return;
      pairs.push([name.slice(0, FIELD_NAME_MAX_CHARS), Buffer.concat(chunks).toString('utf8')]);
    });
  };

  const readFile = (field: string, stream: Readable, rawName: string, declared?: string) => {
    const name = cleanFileName(rawName);
    const mime = storedMime(declared);
    let chunks: Buffer[] = [];
    let size = 0;
    let sniffed = false;
    let dropped = false;
    const drop = (error: ServiceError) => {
      noteFileError(error);
      dropped = true;
      chunks = [];
    };
    const refuseByContent = () => {
      sniffed = true;
      const reason = refusedFileReason(name, mime, Buffer.concat(chunks).subarray(0, SNIFF_BYTES));
      if (reason) drop(fileTypeNotAllowed(name, reason));
    };

    if (!limits.uploadsAllowed && rawName !== '') drop(uploadsDisabled());
    else {
      const reason = refusedFileReason(name, mime);
      if (reason) drop(fileTypeNotAllowed(name, reason));
    }
    stream.on('data', (chunk: Buffer) => {
      if (dropped || chunk.length === 0) return;
      // The post is refused (or dropped as a bot) anyway, so later files only cost memory.
      if (fileError) {
        dropped = true;
        chunks = [];
        return;
      }
      if (size === 0) {
        if (!limits.uploadsAllowed) return drop(uploadsDisabled());
        filesWithContent += 1;
        if (filesWithContent > limits.maxFiles) return drop(tooManyFiles(limits.maxFiles));
      }
      size += chunk.length;
      if (size > limits.maxFileBytes) return drop(fileTooLarge(name, limits.maxFileBytes));
      chunks.push(Buffer.from(chunk));
      if (!sniffed && size >= SNIFF_BYTES) refuseByContent();
    });
    stream.on('end', () => {
      if (dropped || size === 0) return;
      if (!sniffed) refuseByContent();
      if (dropped) return;
      files.push({ field, name, mime, size, content: Buffer.concat(chunks, size) });
    });
  };

  return new Promise<ParsedBody>((resolve, reject) => {
    let settled = false;
    const deadline = setTimeout(() => fail(), PARSE_DEADLINE_MS);
    deadline.unref();
    function fail() {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      reject(unreadable());
    }

    let busboy: BusboyInstance;
    try {
      busboy = Busboy({
        headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` },
        // Every part comes through the file path so text values are read as bytes and
        // decoded as UTF-8 here; `filename` being present is what makes a part a file.
        isPartAFile: () => true,
        preservePath: true,
        limits: {
          // One past the larger of the two byte limits: busboy then stops copying a part's
          // bytes soon after the check above has refused it.
          fileSize: Math.max(limits.maxFileBytes, FIELD_VALUE_MAX_BYTES) + 1,
          parts: PARTS_MAX,
          headerPairs: 32,
          headerSize: 16 * 1024,
        },
      });
    } catch {
      fail();
      return;
    }

    busboy.on('file', (field, stream, fileName, _encoding, mimeType) => {
      // A part cut off by the end of the body errors on its stream; unhandled it would crash.
      stream.on('error', fail);
      const name = field as string | undefined;
      const file = fileName as string | undefined;
      if (file === undefined) readText(name, stream);
      else readFile(name ?? '', stream, file, mimeType);
    });
    busboy.on('error', fail);
    busboy.on('finish', () => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(fileError ? { pairs, files: [], fileError } : { pairs, files });
    });

    const writeFrom = (offset: number) => {
      if (settled) return;
      if (offset >= body.length) {
        busboy.end();
        return;
      }
      busboy.write(body.subarray(offset, offset + SLICE_BYTES), (error) => {
        if (error) fail();
        else writeFrom(offset + SLICE_BYTES);
      });
    };
    writeFrom(0);
  });
}

const uploadsDisabled = () =>
  new ServiceError(400, 'uploads_disabled', 'This form does not accept file uploads');

const tooManyFiles = (maxFiles: number) =>
  new ServiceError(413, 'too_many_files', `A post may carry at most ${maxFiles} files`);

const fileTooLarge = (name: string, maxFileBytes: number) =>
  new ServiceError(
    413,
    'file_too_large',
    `"${name}" is too large: files may be at most ${describeBytes(maxFileBytes)}`,
  );

const fileTypeNotAllowed = (name: string, reason: string) =>
  new ServiceError(415, 'file_type_not_allowed', `"${name}" cannot be uploaded: ${reason}`);

const MEBIBYTE = 1024 * 1024;

/**
 * A byte limit in the units people configured it in: whole MiB print as "10 MB" (the form's
 * `uploadLimitMb`), other sizes of a MB or more in decimal MB ("4.4 MB", the direct-upload
 * cap), smaller ones in KiB ("200 KB") or bytes.
 */
export function describeBytes(bytes: number): string {
  if (bytes >= MEBIBYTE && bytes % MEBIBYTE === 0) return `${bytes / MEBIBYTE} MB`;
  if (bytes >= 1_000_000) return `${Math.round(bytes / 100_000) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}
