import type { ErrorCode } from '#contracts/error-codes.ts';

/**
 * The refusals of the steps the uploads route shares with the submit
 * endpoint (the form, allowed websites, rate limits, files, closed), for
 * both contracts.
 */
export const SHARED_STEP_ERRORS = [
  'invalid_request',
  'uploads_disabled',
  'origin_not_allowed',
  'not_found',
  'payload_too_large',
  'file_too_large',
  'too_many_files',
  'unsupported_media_type',
  'file_type_not_allowed',
  'form_closed',
  'rate_limited',
  'busy',
] as const satisfies readonly ErrorCode[];
