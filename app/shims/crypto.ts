/**
 * `node:crypto` for the browser build: the domain modules the dashboard
 * imports for their schemas also hold server-only helpers (new form keys)
 * that the page never calls.
 */
export function randomBytes(): never {
  throw new Error('randomBytes is not available in the dashboard');
}

export const randomUUID = () => crypto.randomUUID();
