import { ServiceError } from '#domain/errors.ts';
import { withoutHiddenCharacters } from '#domain/visible-text.ts';

/*
 * What makes a file refused, how its name and type are cleaned, and the
 * refusals: shared by the multipart reader and direct uploads (the uploads
 * route and step 7 of submit), without the multipart parser itself.
 */

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
export const SNIFF_BYTES = 4;

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
export function storedMime(declared: string | undefined): string {
  const type = (declared ?? '').trim().toLowerCase();
  return MIME_SHAPE.test(type) ? type : 'application/octet-stream';
}

export const uploadsDisabled = () =>
  new ServiceError('uploads_disabled', 'This form does not accept file uploads');

export const tooManyFiles = (maxFiles: number) =>
  new ServiceError('too_many_files', `A post may carry at most ${maxFiles} files`);

export const fileTooLarge = (name: string, maxFileBytes: number) =>
  new ServiceError(
    'file_too_large',
    `"${name}" is too large: files may be at most ${describeBytes(maxFileBytes)}`,
  );

export const fileTypeNotAllowed = (name: string, reason: string) =>
  new ServiceError('file_type_not_allowed', `"${name}" cannot be uploaded: ${reason}`);

/** The files of one direct-upload post together exceed the per-post total. */
export const filesTooLarge = (maxBytes: number) =>
  new ServiceError(
    'payload_too_large',
    `The files of one post may total at most ${describeBytes(maxBytes)}`,
  );

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
