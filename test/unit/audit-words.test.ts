import { describe, expect, it } from 'vitest';
import { type AuditNames, auditSentence } from '#app/audit-words.ts';
import type { AuditEvent } from '#app/model.ts';
import { AUDIT_ACTIONS } from '#domain/audit.ts';

const SELF = 'user-self';
const ANA = 'user-ana';
const BO = 'user-bo';
const FORM = 'form-contact';

const names: AuditNames = {
  selfId: SELF,
  members: new Map([
    [SELF, { name: '', email: 'me@example.com' }],
    [ANA, { name: 'Ana Lopez', email: 'ana@example.com' }],
    [BO, { name: '', email: 'bo@example.com' }],
  ]),
  forms: new Map([[FORM, 'Contact']]),
  keys: new Map([['key-crm', 'CRM sync']]),
};

type Actor = AuditEvent['actor'];
const ana: Actor = { kind: 'member', userId: ANA, email: 'ana@example.com', keyId: null };
const me: Actor = { kind: 'member', userId: SELF, email: 'me@example.com', keyId: null };
const key: Actor = { kind: 'apiKey', userId: ANA, email: null, keyId: 'key-crm' };
const nobody: Actor = { kind: 'anonymous', userId: null, email: 'bo@example.com', keyId: null };

function event(
  action: AuditEvent['action'],
  actor: Actor,
  target: string | null,
  details: AuditEvent['details'] = {},
): AuditEvent {
  return {
    eventId: 'e1',
    teamId: 't1',
    action,
    actor,
    target,
    details,
    ip: '203.0.113.9',
    at: '2026-11-26T10:00:00.000Z',
  };
}

/**
 * At least one event of every action the domain records, with the sentence
 * it reads as. An action added to AUDIT_ACTIONS without words here fails.
 */
const CASES: Record<string, [AuditEvent, string][]> = {
  'auth.signed_in': [
    [
      event('auth.signed_in', ana, ANA, { method: 'link' }),
      'Ana Lopez signed in with an emailed link.',
    ],
    [event('auth.signed_in', me, SELF, { method: 'code' }), 'You signed in with an emailed code.'],
  ],
  'auth.code_failed': [
    [
      event('auth.code_failed', nobody, BO, { reason: 'wrong_code' }),
      'A wrong sign-in code was tried for bo@example.com.',
    ],
    [
      event('auth.code_failed', nobody, BO, { reason: 'too_many_codes' }),
      'A sign-in code for bo@example.com was refused: too many codes tried this hour.',
    ],
  ],
  'auth.link_failed': [
    [
      event('auth.link_failed', nobody, BO, { reason: 'link_used' }),
      'A sign-in link of bo@example.com was used again and refused (a forwarded email?).',
    ],
    [
      event('auth.link_failed', nobody, BO, { reason: 'link_expired' }),
      'An expired sign-in link of bo@example.com was refused.',
    ],
  ],
  'auth.signed_out': [[event('auth.signed_out', ana, ANA), 'Ana Lopez signed out.']],
  'auth.sessions_ended': [
    [
      event('auth.sessions_ended', me, SELF, { count: 2 }),
      'You signed out everywhere else (2 sessions ended).',
    ],
  ],
  'member.invited': [
    [
      event('member.invited', me, BO, { email: 'bo@example.com', role: 'member' }),
      'You invited bo@example.com as a member.',
    ],
    [
      event('member.invited', ana, 'gone', { email: 'cy@example.com', role: 'owner' }),
      'Ana Lopez invited cy@example.com as an owner.',
    ],
  ],
  'member.invitation_resent': [
    [
      event('member.invitation_resent', me, BO, { email: 'bo@example.com', role: 'member' }),
      'You sent bo@example.com their invitation again.',
    ],
  ],
  'member.updated': [
    [
      event('member.updated', me, ANA, { role: 'owner', previousRole: 'member' }),
      'You made Ana Lopez (ana@example.com) an owner.',
    ],
    [
      event('member.updated', ana, SELF, { role: 'member', previousRole: 'owner' }),
      'Ana Lopez made you a member.',
    ],
    [
      event('member.updated', me, SELF, { role: 'member', previousRole: 'owner' }),
      'You made yourself a member.',
    ],
  ],
  'member.removed': [
    [
      event('member.removed', me, 'gone', { email: 'cy@example.com', apiKeysRevoked: 0 }),
      'You removed cy@example.com from the team.',
    ],
    [
      event('member.removed', ana, 'gone', { email: 'cy@example.com', apiKeysRevoked: 2 }),
      'Ana Lopez removed cy@example.com from the team, which revoked 2 API keys they made.',
    ],
  ],
  'api_key.created': [
    [
      event('api_key.created', me, 'key-crm', { name: 'CRM sync' }),
      'You created the API key “CRM sync”.',
    ],
  ],
  'api_key.revoked': [
    [
      event('api_key.revoked', ana, 'key-crm', { name: 'CRM sync' }),
      'Ana Lopez revoked the API key “CRM sync”.',
    ],
    [
      event('api_key.revoked', ana, 'key-old', { name: 'Old', reason: 'member_removed' }),
      'The API key “Old” was revoked: the member who made it left the team.',
    ],
  ],
  'file.infected': [
    [
      event('file.infected', { kind: 'anonymous', userId: null, email: null, keyId: null }, FORM, {
        submissionId: 's1',
        file: 'cv.pdf',
        threats: 'EICAR-Test-File (not a virus)',
      }),
      'Malware (EICAR-Test-File (not a virus)) was found in the file “cv.pdf” sent to Contact; the file was deleted.',
    ],
  ],
  'form.deleted': [
    [
      event('form.deleted', me, 'form-gone', { name: 'Waitlist' }),
      'You deleted the form Waitlist.',
    ],
  ],
  'form.key_rotated': [
    [event('form.key_rotated', ana, FORM), 'Ana Lopez rotated the form key of Contact.'],
    [
      event('form.key_rotated', ana, 'form-gone'),
      'Ana Lopez rotated the form key of a form since deleted.',
    ],
  ],
  'form.notify_email_changed': [
    [
      event('form.notify_email_changed', me, FORM, {
        notifyEmail: 'desk@example.com',
        previous: '',
      }),
      'You changed where Contact sends its notifications: from the team owner to desk@example.com.',
    ],
    // Only the Cc changed: what was added and removed, not "from the team owner to the team owner".
    [
      event('form.notify_email_changed', ana, FORM, {
        notifyEmail: '',
        previous: '',
        notifyCc: 'sales@example.com, ops@example.com',
        previousCc: 'ops@example.com, old@example.com',
        ccAdded: 'sales@example.com',
        ccRemoved: 'old@example.com',
      }),
      'Ana Lopez changed where Contact sends its notifications: Cc added: sales@example.com; Cc removed: old@example.com.',
    ],
    // Recorded before ccAdded existed: read from the lists.
    [
      event('form.notify_email_changed', me, FORM, {
        notifyEmail: '',
        previous: '',
        notifyCc: 'sales@example.com',
        previousCc: '',
      }),
      'You changed where Contact sends its notifications: Cc added: sales@example.com.',
    ],
    [
      event('form.notify_email_changed', me, FORM, {
        notifyEmail: 'desk@example.com',
        previous: 'desk@example.com',
        notifyRules: 2,
        routedTo: 'sales@example.com, boss@example.com',
        previousRoutedTo: '',
      }),
      'You changed where Contact sends its notifications: routing by answer: sales@example.com, boss@example.com (before: no rules).',
    ],
  ],
  'form.created': [
    [
      event('form.created', me, FORM, { name: 'Contact', type: 'contact' }),
      'You created the form Contact.',
    ],
    [
      event('form.created', ana, 'form-gone', {
        name: 'Contact copy',
        type: 'contact',
        copiedFrom: FORM,
        copiedFromName: 'Contact',
      }),
      'Ana Lopez created the form Contact copy (since deleted), a copy of Contact.',
    ],
  ],
  'form.fields_changed': [
    [
      event('form.fields_changed', me, FORM, {
        fields: 4,
        added: 'Phone, Guests',
        removed: 'Company',
        changed: 'Message',
        reordered: true,
      }),
      'You changed the fields of Contact: added Phone, Guests; removed Company; changed Message; put them in another order.',
    ],
    [
      event('form.fields_changed', ana, FORM, { fields: 'any', removed: 'Name, Email' }),
      'Ana Lopez made Contact accept any answers, unchecked (its list of fields was removed).',
    ],
  ],
  'form.autoreply_changed': [
    [
      event('form.autoreply_changed', me, FORM, { enabled: true, turned: 'on' }),
      'You turned on the auto-reply of Contact.',
    ],
    [
      event('form.autoreply_changed', ana, FORM, {
        enabled: false,
        turned: 'off',
        changed: 'subject',
      }),
      'Ana Lopez turned off the auto-reply of Contact and changed its subject.',
    ],
    [
      event('form.autoreply_changed', key, FORM, { enabled: true, changed: 'subject, text' }),
      'The API key “CRM sync” changed the auto-reply of Contact: its subject and text.',
    ],
  ],
  'form.design_changed': [
    [
      event('form.design_changed', me, FORM, { changed: 'theme, accent, submitLabel' }),
      'You changed the design of Contact: its theme, accent colour and button label.',
    ],
  ],
  'form.retention_changed': [
    [
      event('form.retention_changed', me, FORM, { retentionDays: 30 }),
      'You made Contact delete its submissions after 30 days (they were kept until deleted).',
    ],
    [
      event('form.retention_changed', ana, FORM, { retentionDays: 1, previousRetentionDays: 365 }),
      'Ana Lopez made Contact delete its submissions after 1 day (it was 365 days).',
    ],
    [
      event('form.retention_changed', ana, FORM, { previousRetentionDays: 90 }),
      'Ana Lopez made Contact keep its submissions until they are deleted (it was 90 days).',
    ],
  ],
  'form.test_submitted': [
    [
      event('form.test_submitted', key, FORM, { submissionId: 's1' }),
      'The API key “CRM sync” sent a test submission to Contact.',
    ],
  ],
  'submissions.deleted': [
    [
      event('submissions.deleted', me, FORM, { count: 1, by: 'ids' }),
      'You deleted 1 submission of Contact.',
    ],
    [
      event('submissions.deleted', ana, FORM, { count: 1200, by: 'filter:spam' }),
      'Ana Lopez deleted 1,200 spam submissions of Contact.',
    ],
  ],
  'submissions.exported': [
    [
      event('submissions.exported', me, FORM, { filter: 'all' }),
      'You exported the submissions of Contact as a spreadsheet (CSV).',
    ],
    [
      event('submissions.exported', me, FORM, { filter: 'starred' }),
      'You exported the starred submissions of Contact as a spreadsheet (CSV).',
    ],
  ],
  'webhook.connected': [
    [
      event('webhook.connected', me, FORM, { host: 'hooks.example.com' }),
      'You connected Contact to a webhook at hooks.example.com.',
    ],
    [
      event('webhook.connected', me, FORM, { host: 'hooks.example.com', copiedFrom: 'form-x' }),
      'You connected Contact to a webhook at hooks.example.com (copied with the form).',
    ],
  ],
  'privacy.erased': [
    [
      event('privacy.erased', me, null, { emailHash: 'ab'.repeat(16), count: 3, forms: 2 }),
      'You erased 3 submissions of one person, found by their email address, in 2 forms.',
    ],
    [
      event('privacy.erased', ana, null, { emailHash: 'ab'.repeat(16), count: 0, forms: 0 }),
      "Ana Lopez asked to erase one person's submissions by their email address: none were left.",
    ],
  ],
  'privacy.exported': [
    [
      event('privacy.exported', me, null, { emailHash: 'ab'.repeat(16) }),
      'You downloaded every submission of one person, found by their email address.',
    ],
  ],
  'suppression.lifted': [
    [
      event('suppression.lifted', ana, null, { emailHash: 'ab'.repeat(16) }),
      "Ana Lopez let the team's forms email an address again that had bounced or complained.",
    ],
  ],
  'team.ip_storage_changed': [
    [
      event('team.ip_storage_changed', me, 't1', {
        ipStorage: 'keyedHash',
        previousIpStorage: 'address',
      }),
      "You made new submissions keep a coded stand-in for the sender's internet address instead of the address.",
    ],
    [
      event('team.ip_storage_changed', ana, 't1', {
        ipStorage: 'address',
        previousIpStorage: 'keyedHash',
      }),
      "Ana Lopez made new submissions keep the sender's internet address again.",
    ],
  ],
  'webhook.url_changed': [
    [
      event('webhook.url_changed', me, FORM, {
        host: 'b.example.com',
        previousHost: 'a.example.com',
      }),
      'You moved the webhook of Contact from a.example.com to b.example.com.',
    ],
  ],
  'integration.connected': [
    [
      event('integration.connected', ana, FORM, { kind: 'slack', host: 'hooks.slack.com' }),
      'Ana Lopez connected Contact to a Slack channel.',
    ],
    [
      event('integration.connected', me, FORM, {
        kind: 'discord',
        host: 'discord.com',
        copiedFrom: 'form-x',
      }),
      'You connected Contact to a Discord channel (copied with the form).',
    ],
  ],
  'integration.url_changed': [
    [
      event('integration.url_changed', key, FORM, { kind: 'slack', host: 'hooks.slack.com' }),
      'The API key “CRM sync” pointed Contact at another Slack channel.',
    ],
  ],
  'integration.disconnected': [
    [
      event('integration.disconnected', me, FORM, { kind: 'discord' }),
      'You disconnected Contact from a Discord channel.',
    ],
  ],
  'webhook.disconnected': [
    [
      event('webhook.disconnected', { ...ana, userId: 'gone', email: 'old@example.com' }, FORM),
      'old@example.com disconnected the webhook of Contact.',
    ],
  ],
  'webhook.secret_rotated': [
    [
      event('webhook.secret_rotated', { ...key, keyId: 'key-gone' }, FORM),
      'An API key gave the webhook of Contact a new signing secret.',
    ],
  ],
};

describe('the audit trail in sentences', () => {
  it.each([...AUDIT_ACTIONS])('%s has words, tested', (action) => {
    const cases = CASES[action];
    expect(
      cases,
      `no sentence tested for ${action}: add its words to app/audit-words.ts`,
    ).toBeDefined();
    for (const [recorded, sentence] of cases ?? []) {
      expect(recorded.action).toBe(action);
      expect(auditSentence(recorded, names)).toBe(sentence);
    }
  });

  it('names no action, field or code: no snake_case or dotted word in any sentence', () => {
    for (const [recorded] of Object.values(CASES).flat()) {
      const sentence = auditSentence(recorded, names);
      // Addresses and hosts are the people's and receivers' own words, and so is a quoted name
      // (a file's “cv.pdf”); anything else dotted is code.
      const words = sentence.replace(/[\w.@-]*example\.com/g, '').replace(/“[^”]*”/g, '');
      expect(words, sentence).not.toMatch(/[a-z][._][a-z]/i);
      expect(sentence).not.toMatch(/undefined|null|NaN/);
    }
  });

  it('tests only actions the domain records', () => {
    expect(Object.keys(CASES).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });
});
