import type { ServiceError } from '#domain/errors.ts';

/**
 * What the submit endpoint's body parsers hand over, shared by the parser
 * of each content type (parse-body.ts) and the multipart reader.
 */

/** One uploaded file, held in memory: bodies are capped at a few MB before they get here. */
export interface ReceivedFile {
  /** The form field the file was posted under ("" when the part named none). */
  field: string;
  /** Base name only, cleaned of paths and control characters, at most 255 characters. */
  name: string;
  /** The part's declared type, lower case, `type/subtype` only; `application/octet-stream` when unusable. */
  mime: string;
  /** Bytes. */
  size: number;
  content: Buffer;
}

export interface ParsedBody {
  /** Every answer in body order; repeated names stay repeated. */
  pairs: Array<[string, string]>;
  /** Files that passed every check; empty whenever `fileError` is set. */
  files: ReceivedFile[];
  /**
   * The first file problem (400 uploads_disabled, 413 file_too_large, 413 too_many_files,
   * 415 file_type_not_allowed). Returned rather than thrown because the processing order
   * (docs/submit.md#processing-order) drops bots (step 6) and refuses empty posts (step 7)
   * before it refuses files, and those checks need every answer, including the ones posted
   * after the bad file.
   */
  fileError?: ServiceError;
}

export interface BodyLimits {
  /** Whole body, after base64 decoding; over → 413 payload_too_large. */
  maxBodyBytes: number;
  /** Per file; over → 413 file_too_large. */
  maxFileBytes: number;
  /** Non-empty files per post; more → 413 too_many_files. */
  maxFiles: number;
  /** When false, a file part with a filename or with content → 400 uploads_disabled. */
  uploadsAllowed: boolean;
}
