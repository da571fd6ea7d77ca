import type { Readable } from 'node:stream';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { ServiceError } from '#domain/errors.ts';
import type { BodyLimits, ParsedBody, ReceivedFile } from './body.ts';
import {
  cleanFileName,
  fileTooLarge,
  fileTypeNotAllowed,
  refusedFileReason,
  SNIFF_BYTES,
  storedMime,
  tooManyFiles,
  uploadsDisabled,
} from './file-rules.ts';

export {
  cleanFileName,
  describeBytes,
  REFUSED_FILE_TYPES,
  refusedFileReason,
} from './file-rules.ts';

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
  new ServiceError('unsupported_media_type', 'The multipart body could not be read');

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
