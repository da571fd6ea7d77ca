import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUSES, type ErrorCode } from '#contracts/error-codes.ts';
import { ServiceError } from '#domain/errors.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DOCS = join(ROOT, 'docs');

function pages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return pages(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/**
 * Every "status code" pair the docs state: a row of an errors table
 * (`| 409 | \`already_member\`, \`last_owner\` |`) or a code quoted with its
 * status (`` `403 captcha_failed` ``).
 */
function documentedPairs(): { page: string; status: number; code: string }[] {
  return pages(DOCS).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const page = relative(ROOT, file);
    const rows = [...text.matchAll(/^\| (\d{3}) \| ((?:`[a-z_]+`(?:, )?)+) \|/gm)].flatMap((m) =>
      [...m[2]!.matchAll(/`([a-z_]+)`/g)].map((c) => ({ page, status: Number(m[1]), code: c[1]! })),
    );
    const quoted = [...text.matchAll(/`(\d{3}) ([a-z_]+)`/g)].map((m) => ({
      page,
      status: Number(m[1]),
      code: m[2]!,
    }));
    return [...rows, ...quoted];
  });
}

describe('the error codes', () => {
  const codes = Object.keys(ERROR_CODES) as ErrorCode[];

  it('every code has an error status the reference describes', () => {
    const undescribed = codes.filter((code) => !(ERROR_CODES[code] in ERROR_STATUSES));
    expect(undescribed).toEqual([]);
    for (const code of codes) expect(ERROR_CODES[code]).toBeGreaterThanOrEqual(400);
  });

  it('a ServiceError takes its status from its code alone', () => {
    for (const code of codes) {
      const error = new ServiceError(code, 'a refusal');
      expect([error.code, error.status]).toEqual([code, ERROR_CODES[code]]);
    }
  });

  it('every status the docs state for a code is the status the service answers', () => {
    const pairs = documentedPairs();
    expect(pairs.length).toBeGreaterThan(20);
    const wrong = pairs
      .filter(({ code, status }) => ERROR_CODES[code as ErrorCode] !== status)
      .map(
        ({ page, status, code }) =>
          `${page}: ${status} ${code} (service: ${ERROR_CODES[code as ErrorCode] ?? 'no such code'})`,
      );
    expect(wrong).toEqual([]);
  });

  it('every code is stated in the docs with its status', () => {
    const documented = new Set(documentedPairs().map(({ code }) => code));
    expect(codes.filter((code) => !documented.has(code))).toEqual([]);
  });
});
