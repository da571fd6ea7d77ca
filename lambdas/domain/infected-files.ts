import { createHash } from 'node:crypto';
import type { AuditEvent } from './audit.ts';

/**
 * What the audit trail keeps of a file found infected and deleted
 * (docs/uploads-and-pages.md#malware-scanning). A module of its own: it
 * hashes with node:crypto, which the dashboard's copy of file-scans.ts
 * must not pull in.
 */
export function infectedFileEvent(input: {
  teamId: string;
  formId: string;
  submissionId: string;
  index: number;
  /** The file's name as sent. */
  name: string;
  threats: readonly string[];
  /** When GuardDuty published the verdict. */
  at: string;
}): AuditEvent {
  return {
    eventId: infectedFileEventId(input.at, input),
    teamId: input.teamId,
    action: 'file.infected',
    // Nobody acted: the scanner found it.
    actor: { kind: 'anonymous', userId: null, email: null, keyId: null },
    target: input.formId,
    details: {
      submissionId: input.submissionId,
      file: input.name.slice(0, 255),
      threats: input.threats.join(', ').slice(0, 500),
    },
    ip: null,
    at: input.at,
  };
}

/**
 * The audit event id of a file found infected: a UUID v7 of the verdict's
 * time whose other bits are the file's, so a message received again records
 * the event once.
 */
export function infectedFileEventId(
  at: string,
  file: { formId: string; submissionId: string; index: number },
): string {
  const time = Math.max(0, Date.parse(at)).toString(16).padStart(12, '0').slice(-12);
  const bits = createHash('sha256')
    .update(`${file.formId}/${file.submissionId}/${file.index}`)
    .digest('hex');
  const variant = ((Number.parseInt(bits[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${bits.slice(0, 3)}-${variant}${bits.slice(4, 7)}-${bits.slice(7, 19)}`;
}
