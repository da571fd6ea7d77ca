import type { AuditAction } from '#domain/audit.ts';
import type { AuditEvent } from './model.ts';

/**
 * The audit trail in sentences ("Ana Lopez rotated the form key of
 * Contact"): each action the domain records (docs/people.md#teams-members-keys-and-the-audit-trail)
 * has its words here, in a Record, so a new action cannot reach the screen
 * as a code. The trail stores ids; the names come from what the screen has
 * read (members, forms, keys), with the words the event kept as a fallback
 * for what has gone since.
 */

/** The names the screen knows, by id. */
export interface AuditNames {
  /** The signed-in member: their own actions read "You …". */
  selfId: string;
  members: ReadonlyMap<string, { name: string; email: string }>;
  forms: ReadonlyMap<string, string>;
  keys: ReadonlyMap<string, string>;
}

interface Said {
  /** Who acted, capitalised: "You", "Ana Lopez", "The API key “CRM sync”". */
  who: string;
  /** The member the event is about: a name, an email, or words for one who left. */
  member: string;
  /** The form the event is about, by its name. */
  form: string;
  /** Whether the screen still knows that form (else `form` says it was deleted). */
  formKnown: boolean;
  text: (name: string) => string;
  count: (name: string) => number;
}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

const roleWords = (role: string) => (role === 'owner' ? 'an owner' : 'a member');

const FOLDER_WORDS: Record<string, string> = {
  all: 'the submissions',
  unread: 'the unread submissions',
  starred: 'the starred submissions',
  spam: 'the spam',
};

/** `a`, `a and b`, `a, b and c`. */
const andList = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** A detail listing names (`a, b`), as a list; none when absent. */
const namesIn = (text: string) =>
  text
    .split(',')
    .map((each) => each.trim())
    .filter(Boolean);

/** The design's parts as the Design screen names them. */
const DESIGN_WORDS: Record<string, string> = {
  theme: 'theme',
  accent: 'accent colour',
  title: 'title',
  description: 'description',
  submitLabel: 'button label',
  successMessage: 'message after sending',
};

/**
 * Where notifications go, said as what changed: the address they go to
 * ("from the team owner to desk@example.com") and the Cc added and removed
 * by address. Events recorded before `ccAdded` and `ccRemoved` existed are
 * read from the whole lists (`notifyCc`, `previousCc`).
 */
function notifyWords(s: Said): string {
  const parts: string[] = [];
  const to = s.text('notifyEmail');
  const previous = s.text('previous');
  if (to !== previous)
    parts.push(`from ${previous || 'the team owner'} to ${to || 'the team owner'}`);
  const cc = namesIn(s.text('notifyCc'));
  const ccBefore = namesIn(s.text('previousCc'));
  const added = s.text('ccAdded')
    ? namesIn(s.text('ccAdded'))
    : cc.filter((each) => !ccBefore.includes(each));
  const removed = s.text('ccRemoved')
    ? namesIn(s.text('ccRemoved'))
    : ccBefore.filter((each) => !cc.includes(each));
  if (added.length > 0) parts.push(`Cc added: ${added.join(', ')}`);
  if (removed.length > 0) parts.push(`Cc removed: ${removed.join(', ')}`);
  const routed = s.text('routedTo');
  const routedBefore = s.text('previousRoutedTo');
  if (routed !== routedBefore)
    parts.push(
      `routing by answer: ${routed || 'no rules'} (before: ${routedBefore || 'no rules'})`,
    );
  if (parts.length === 0) parts.push('the Cc list was put in another order');
  return `${s.who} changed where ${s.form} sends its notifications: ${parts.join('; ')}`;
}

function fieldsWords(s: Said): string {
  if (s.text('fields') === 'any')
    return `${s.who} made ${s.form} accept any answers, unchecked (its list of fields was removed)`;
  const parts = [
    s.text('added') && `added ${s.text('added')}`,
    s.text('removed') && `removed ${s.text('removed')}`,
    s.text('changed') && `changed ${s.text('changed')}`,
    s.text('reordered') === 'true' && 'put them in another order',
  ].filter((part): part is string => Boolean(part));
  return `${s.who} changed the fields of ${s.form}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`;
}

function autoreplyWords(s: Said): string {
  const turned = s.text('turned');
  const changed = andList(namesIn(s.text('changed')));
  if (turned && changed)
    return `${s.who} turned ${turned} the auto-reply of ${s.form} and changed its ${changed}`;
  if (turned) return `${s.who} turned ${turned} the auto-reply of ${s.form}`;
  return `${s.who} changed the auto-reply of ${s.form}: its ${changed}`;
}

const KIND_WORDS: Record<string, string> = {
  slack: 'a Slack channel',
  discord: 'a Discord channel',
  sheets: 'a Google sheet',
};

const SENTENCES: Record<AuditAction, (said: Said) => string> = {
  'auth.signed_in': (s) =>
    `${s.who} signed in with ${s.text('method') === 'code' ? 'an emailed code' : 'an emailed link'}`,
  'auth.code_failed': (s) =>
    s.text('reason') === 'too_many_codes'
      ? `A sign-in code for ${s.member} was refused: too many codes tried this hour`
      : `A wrong sign-in code was tried for ${s.member}`,
  'auth.link_failed': (s) =>
    s.text('reason') === 'link_used'
      ? `A sign-in link of ${s.member} was used again and refused (a forwarded email?)`
      : `An expired sign-in link of ${s.member} was refused`,
  'auth.signed_out': (s) => `${s.who} signed out`,
  'auth.sessions_ended': (s) =>
    `${s.who} signed out everywhere else (${plural(s.count('count'), 'session')} ended)`,
  'member.invited': (s) => `${s.who} invited ${s.member} as ${roleWords(s.text('role'))}`,
  'member.invitation_resent': (s) => `${s.who} sent ${s.member} their invitation again`,
  'member.updated': (s) => `${s.who} made ${s.member} ${roleWords(s.text('role'))}`,
  'member.removed': (s) => {
    const keys = s.count('apiKeysRevoked');
    return `${s.who} removed ${s.member} from the team${keys > 0 ? `, which revoked ${plural(keys, 'API key')} they made` : ''}`;
  },
  'api_key.created': (s) => `${s.who} created the API key “${s.text('name')}”`,
  'api_key.revoked': (s) =>
    s.text('reason') === 'member_removed'
      ? `The API key “${s.text('name')}” was revoked: the member who made it left the team`
      : `${s.who} revoked the API key “${s.text('name')}”`,
  'file.infected': (s) =>
    `Malware (${s.text('threats') || 'a threat'}) was found in ${s.text('file') ? `the file “${s.text('file')}”` : 'a file'} sent to ${s.form}; the file was deleted`,
  'form.created': (s) => {
    const name = s.formKnown ? s.form : `${s.text('name') || 'a form'} (since deleted)`;
    const from = s.text('copiedFromName');
    return `${s.who} created the form ${name}${from ? `, a copy of ${from}` : ''}`;
  },
  'form.deleted': (s) => `${s.who} deleted the form ${s.text('name') || s.form}`,
  'form.fields_changed': fieldsWords,
  'form.autoreply_changed': autoreplyWords,
  'form.design_changed': (s) =>
    `${s.who} changed the design of ${s.form}: its ${andList(namesIn(s.text('changed')).map((part) => DESIGN_WORDS[part] ?? part))}`,
  'form.key_rotated': (s) => `${s.who} rotated the form key of ${s.form}`,
  'form.notify_email_changed': notifyWords,
  'form.retention_changed': (s) => {
    const days = s.count('retentionDays');
    const before = s.count('previousRetentionDays');
    const now =
      days > 0
        ? `made ${s.form} delete its submissions after ${plural(days, 'day')}`
        : `made ${s.form} keep its submissions until they are deleted`;
    return `${s.who} ${now} (${before > 0 ? `it was ${plural(before, 'day')}` : 'they were kept until deleted'})`;
  },
  'form.test_submitted': (s) => `${s.who} sent a test submission to ${s.form}`,
  'privacy.erased': (s) =>
    s.count('count') === 0
      ? `${s.who} asked to erase one person's submissions by their email address: none were left`
      : `${s.who} erased ${plural(s.count('count'), 'submission')} of one person, found by their email address, in ${plural(s.count('forms'), 'form')}`,
  'integration.connected': (s) =>
    `${s.who} connected ${s.form} to ${KIND_WORDS[s.text('kind')] ?? 'an integration'}${s.text('copiedFrom') ? ' (copied with the form)' : ''}`,
  'integration.url_changed': (s) =>
    `${s.who} pointed ${s.form} at another ${KIND_WORDS[s.text('kind')]?.slice(2) ?? 'integration'}`,
  'integration.disconnected': (s) =>
    `${s.who} disconnected ${s.form} from ${KIND_WORDS[s.text('kind')] ?? 'an integration'}`,
  'privacy.exported': (s) =>
    `${s.who} downloaded every submission of one person, found by their email address`,
  'submissions.deleted': (s) => {
    const by = s.text('by');
    const what = by === 'filter:spam' ? 'spam submission' : 'submission';
    return `${s.who} deleted ${plural(s.count('count'), what)} of ${s.form}`;
  },
  'submissions.exported': (s) =>
    `${s.who} exported ${FOLDER_WORDS[s.text('filter')] ?? 'the submissions'} of ${s.form} as a spreadsheet (CSV)`,
  'suppression.lifted': (s) =>
    `${s.who} let the team's forms email an address again that had bounced or complained`,
  'team.ip_storage_changed': (s) =>
    s.text('ipStorage') === 'keyedHash'
      ? `${s.who} made new submissions keep a coded stand-in for the sender's internet address instead of the address`
      : `${s.who} made new submissions keep the sender's internet address again`,
  'webhook.connected': (s) =>
    `${s.who} connected ${s.form} to a webhook at ${s.text('host')}${s.text('copiedFrom') ? ' (copied with the form)' : ''}`,
  'webhook.url_changed': (s) =>
    `${s.who} moved the webhook of ${s.form} from ${s.text('previousHost')} to ${s.text('host')}`,
  'webhook.disconnected': (s) => `${s.who} disconnected the webhook of ${s.form}`,
  'webhook.secret_rotated': (s) => `${s.who} gave the webhook of ${s.form} a new signing secret`,
};

function whoActed(event: AuditEvent, names: AuditNames): string {
  const { actor } = event;
  if (actor.kind === 'apiKey') {
    const name = actor.keyId ? names.keys.get(actor.keyId) : undefined;
    return name ? `The API key “${name}”` : 'An API key';
  }
  if (actor.kind === 'anonymous') return 'Someone';
  if (actor.userId === names.selfId) return 'You';
  const member = actor.userId ? names.members.get(actor.userId) : undefined;
  return member?.name || member?.email || actor.email || 'A former member';
}

function memberNamed(event: AuditEvent, names: AuditNames): string {
  if (event.target === names.selfId)
    return event.actor.userId === names.selfId ? 'yourself' : 'you';
  const member = event.target ? names.members.get(event.target) : undefined;
  const email = event.details.email ?? event.actor.email;
  if (member) return member.name ? `${member.name} (${member.email})` : member.email;
  return typeof email === 'string' && email ? email : 'a former member';
}

/** One event in one sentence, without its time (the screen shows it beside). */
export function auditSentence(event: AuditEvent, names: AuditNames): string {
  const details = event.details;
  const said: Said = {
    who: whoActed(event, names),
    member: memberNamed(event, names),
    form: (event.target && names.forms.get(event.target)) || 'a form since deleted',
    formKnown: Boolean(event.target && names.forms.has(event.target)),
    text: (name) => {
      const value = details[name];
      return value === undefined ? '' : String(value);
    },
    count: (name) => Number(details[name] ?? 0),
  };
  return `${SENTENCES[event.action](said)}.`;
}
