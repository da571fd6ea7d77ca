import { describe, expect, it } from 'vitest';
import {
  encodeMetadata,
  MAX_METADATA_NAME_BYTES,
  nameForMetadata,
  pendingUploadTimeProblem,
  UPLOAD_POLICY_SECONDS,
} from '#domain/direct-uploads.ts';

/** A UUID v7 whose time is `at`. */
function idIssuedAt(at: number): string {
  const hex = at.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

describe('nameForMetadata', () => {
  it('keeps a name whose encoding fits, and cuts a long one to fit, extension kept', () => {
    expect(nameForMetadata('report.pdf')).toBe('report.pdf');
    const long = `${'文'.repeat(250)}.pdf`;
    const cut = nameForMetadata(long);
    expect(encodeMetadata(cut).length).toBeLessThanOrEqual(MAX_METADATA_NAME_BYTES);
    expect(encodeMetadata(cut).length).toBeGreaterThan(MAX_METADATA_NAME_BYTES - 12);
    expect(cut.endsWith('.pdf')).toBe(true);
    expect(long.startsWith(cut.slice(0, -4))).toBe(true);
    const emoji = nameForMetadata('😀'.repeat(200));
    expect([...emoji].every((c) => c === '😀')).toBe(true);
    expect(encodeMetadata(emoji).length).toBeLessThanOrEqual(MAX_METADATA_NAME_BYTES);
  });
});

describe('pendingUploadTimeProblem', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('takes an object that arrived within the policy and the hour an upload may take', () => {
    const issued = now.getTime() - 30 * 60_000;
    const arrived = new Date(issued + UPLOAD_POLICY_SECONDS * 1000 + 50 * 60_000);
    expect(pendingUploadTimeProblem(idIssuedAt(issued), arrived, now)).toBeUndefined();
  });
  it('refuses one that arrived later than that, and an id older than a day', () => {
    const issued = now.getTime() - 3 * 60 * 60_000;
    const arrived = new Date(issued + UPLOAD_POLICY_SECONDS * 1000 + 61 * 60_000);
    expect(pendingUploadTimeProblem(idIssuedAt(issued), arrived, now)).toBe('late');
    const old = now.getTime() - 25 * 60 * 60_000;
    expect(pendingUploadTimeProblem(idIssuedAt(old), new Date(old), now)).toBe('expired');
  });
});
