/** Ids have the UUID shape (docs/submissions.md#submissions); anything else names nothing. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string | undefined): value is string {
  return value !== undefined && UUID_PATTERN.test(value);
}

/**
 * A form's public key has this shape (the submit endpoint's rule): anything
 * else is a 404 without a lookup.
 */
const FORM_KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/i;

export function isFormKey(value: string | undefined): value is string {
  return value !== undefined && FORM_KEY_PATTERN.test(value);
}

/** An API key's public id (`fsk_<keyId>_…`, domain/api-keys.ts). */
const KEY_ID_PATTERN = /^[a-z0-9]{16}$/;
/** A file's place in a submission's list: a post holds at most a few dozen. */
const FILE_INDEX_PATTERN = /^\d{1,3}$/;

/** Every path id of the management routes, its shape and what it names. */
const PATH_IDS: Record<string, { pattern: RegExp; names: string }> = {
  id: { pattern: UUID_PATTERN, names: 'Form' },
  submissionId: { pattern: UUID_PATTERN, names: 'Submission' },
  deliveryId: { pattern: UUID_PATTERN, names: 'Delivery' },
  userId: { pattern: UUID_PATTERN, names: 'Member' },
  keyId: { pattern: KEY_ID_PATTERN, names: 'API key' },
  index: { pattern: FILE_INDEX_PATTERN, names: 'File' },
};

/**
 * What the first path id of the wrong shape would have named, or undefined
 * when every one has its shape. An id of any other shape names nothing
 * (docs/submissions.md#submissions): the route answers 404 before any table
 * key is built from it (a long id would make a key DynamoDB refuses).
 */
export function misshapenPathId(
  pathParameters: Record<string, string | undefined>,
): string | undefined {
  for (const [name, value] of Object.entries(pathParameters)) {
    const shape = PATH_IDS[name];
    if (value !== undefined && shape && !shape.pattern.test(value)) return shape.names;
  }
  return undefined;
}
