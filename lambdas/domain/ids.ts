/** Ids have the UUID shape (docs/api-guide.md#submissions); anything else names nothing. */
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
