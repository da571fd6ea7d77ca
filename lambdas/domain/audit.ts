/**
 * The team's audit trail: who did what, when and from where, kept a year.
 * Recorded: sign-ins, failed codes and links, sign-outs and sessions ended,
 * member and API key changes (invitations sent again too), forms created (or
 * copied) and deleted, what a save changed of a form's fields, auto-reply
 * and design (lambdas/domain/form-audit.ts), bulk deletes of submissions, and every
 * way data leaves (docs/people.md#teams-members-keys-and-the-audit-trail):
 * the webhook connected, changed or disconnected, its secret rotated, an
 * integration connected, changed or disconnected (its host only), the
 * notification address changed, a CSV export, a form's key rotated, a test
 * submission; how long a form keeps its submissions changed; what the team
 * keeps of visitors' addresses changed; a
 * person's submissions exported or erased by email (the address as a keyed
 * hash only: docs/privacy.md#erase-by-email).
 * Never a secret, a token or a code.
 */
export const AUDIT_ACTIONS = [
  'auth.signed_in',
  'auth.code_failed',
  'auth.link_failed',
  'auth.signed_out',
  'auth.sessions_ended',
  'member.invited',
  'member.invitation_resent',
  'member.removed',
  'member.updated',
  'api_key.created',
  'api_key.revoked',
  'form.created',
  'form.deleted',
  'form.key_rotated',
  'form.notify_email_changed',
  'form.fields_changed',
  'form.autoreply_changed',
  'form.design_changed',
  'form.retention_changed',
  'form.test_submitted',
  'integration.connected',
  'integration.url_changed',
  'integration.disconnected',
  'privacy.erased',
  'privacy.exported',
  'submissions.deleted',
  'submissions.exported',
  'suppression.lifted',
  'team.ip_storage_changed',
  'webhook.connected',
  'webhook.url_changed',
  'webhook.disconnected',
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

/**
 * What the trail keeps of a webhook URL: its host, where the data goes. The
 * path and query may hold a receiver's token (many services put one there),
 * so they are never recorded.
 */
export function webhookHostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : '';
}
