/**
 * The team's audit trail: who did what, when and from where, kept a year.
 * Recorded: sign-ins, failed codes and links, member and API key changes, form
 * deletes, bulk deletes of submissions and webhook secret rotations.
 */
export const AUDIT_ACTIONS = [
  'auth.signed_in',
  'auth.code_failed',
  'auth.link_failed',
  'member.invited',
  'member.removed',
  'member.updated',
  'api_key.created',
  'api_key.revoked',
  'form.deleted',
  'submissions.deleted',
  'webhook.secret_rotated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_RETENTION_SECONDS = 365 * 86_400;

/** Who acted: a member through a session, an API key, or nobody yet (a failed code or link). */
export interface AuditActor {
  kind: 'member' | 'apiKey' | 'anonymous';
  userId: string | null;
  email: string | null;
  keyId: string | null;
}

export interface AuditEvent {
  eventId: string;
  teamId: string;
  action: AuditAction;
  actor: AuditActor;
  /** What it acted on: a member's userId, a key id, a form id. */
  target: string | null;
  /** Small facts that say more (a count, a role); never a secret. */
  details: Record<string, string | number | boolean>;
  ip: string | null;
  at: string;
}
