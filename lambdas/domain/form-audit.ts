import type { AuditAction } from './audit.ts';
import type { FieldDefinition, FormDesign, FormRecord } from './form-model.ts';

/**
 * What a save of a form's settings records in the team's audit trail, said
 * as what changed (docs/people.md#teams-members-keys-and-the-audit-trail):
 * where notifications go (the Cc added and removed by address), the fields
 * (added, removed and changed, by label), the auto-reply (turned on or off,
 * which of its parts changed), the design (which of its parts), and how
 * long submissions are kept. Never the text of an auto-reply or a design:
 * the trail says what changed, the form says what it now is.
 */

export interface AuditNote {
  action: AuditAction;
  details: Record<string, string | number | boolean>;
}

/** Names listed in one detail at most; the rest are counted ("and 3 more"). */
const NAMES_LISTED = 10;

/** `a, b, c`, or `a, b, … and 3 more` past `NAMES_LISTED`. */
export function listed(names: readonly string[]): string {
  if (names.length <= NAMES_LISTED) return names.join(', ');
  return `${names.slice(0, NAMES_LISTED).join(', ')} and ${names.length - NAMES_LISTED} more`;
}

/** JSON with object keys sorted: a stored field's keys may come back in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, each: unknown) =>
    each && typeof each === 'object' && !Array.isArray(each)
      ? Object.fromEntries(Object.entries(each).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : each,
  );
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** Each address a form's routing rules name, once, comma-separated. */
function routedAddresses(rules: FormRecord['notifyRules'] | undefined): string {
  const seen = new Set<string>();
  for (const rule of rules ?? []) for (const address of rule.to) seen.add(address);
  return [...seen].join(', ');
}

/**
 * Where notifications go: the address, the Cc added and removed, and the
 * routing rules when they changed (their conditions too: they decide who
 * reads which answers), by their count and every address they name.
 */
export function notifyNote(before: FormRecord, after: FormRecord): AuditNote | undefined {
  const ccBefore = before.notifyCc ?? [];
  const ccAfter = after.notifyCc ?? [];
  const ccChanged = ccBefore.join(', ') !== ccAfter.join(', ');
  const rulesChanged = !same(before.notifyRules ?? [], after.notifyRules ?? []);
  if (before.notifyEmail === after.notifyEmail && !ccChanged && !rulesChanged) return undefined;
  const added = ccAfter.filter((address) => !ccBefore.includes(address));
  const removed = ccBefore.filter((address) => !ccAfter.includes(address));
  // Where each post's notification goes: addresses, not secrets.
  return {
    action: 'form.notify_email_changed',
    details: {
      notifyEmail: after.notifyEmail ?? '',
      previous: before.notifyEmail ?? '',
      ...(ccChanged ? { notifyCc: ccAfter.join(', '), previousCc: ccBefore.join(', ') } : {}),
      ...(added.length > 0 ? { ccAdded: added.join(', ') } : {}),
      ...(removed.length > 0 ? { ccRemoved: removed.join(', ') } : {}),
      ...(rulesChanged
        ? {
            notifyRules: (after.notifyRules ?? []).length,
            routedTo: routedAddresses(after.notifyRules),
            previousRoutedTo: routedAddresses(before.notifyRules),
          }
        : {}),
    },
  };
}

const fieldName = (field: FieldDefinition) => field.label?.trim() || field.id;

function fieldsNote(before: FormRecord, after: FormRecord): AuditNote | undefined {
  if (same(before.fields, after.fields)) return undefined;
  const old = new Map((before.fields ?? []).map((field) => [field.id, field]));
  const now = new Map((after.fields ?? []).map((field) => [field.id, field]));
  const added = [...now.values()].filter((field) => !old.has(field.id)).map(fieldName);
  const removed = [...old.values()].filter((field) => !now.has(field.id)).map(fieldName);
  const changed = [...now.values()]
    .filter((field) => old.has(field.id) && !same(old.get(field.id), field))
    .map(fieldName);
  const kept = [...now.keys()].filter((id) => old.has(id));
  const oldOrder = [...old.keys()].filter((id) => now.has(id));
  const moved = !same(kept, oldOrder);
  return {
    action: 'form.fields_changed',
    details: {
      // null accepts any answer unchecked; a list checks them (docs/forms.md).
      fields: after.fields === null ? 'any' : after.fields.length,
      ...(before.fields === null ? { previousFields: 'any' } : {}),
      ...(added.length > 0 ? { added: listed(added) } : {}),
      ...(removed.length > 0 ? { removed: listed(removed) } : {}),
      ...(changed.length > 0 ? { changed: listed(changed) } : {}),
      ...(moved ? { reordered: true } : {}),
    },
  };
}

/** The auto-reply's parts, by the words the trail uses for them. */
const AUTOREPLY_PARTS = {
  autoreplySubject: 'subject',
  autoreplyBody: 'text',
  autoreplyAnswerPlaceholders: 'answer placeholders',
  autoreplyHourlyLimit: 'hourly limit',
} as const satisfies Partial<Record<keyof FormRecord, string>>;

function autoreplyNote(before: FormRecord, after: FormRecord): AuditNote | undefined {
  const turned = before.autoreplyEnabled !== after.autoreplyEnabled;
  const changed = (Object.keys(AUTOREPLY_PARTS) as (keyof typeof AUTOREPLY_PARTS)[])
    .filter((part) => !same(before[part], after[part]))
    .map((part) => AUTOREPLY_PARTS[part]);
  if (!turned && changed.length === 0) return undefined;
  return {
    action: 'form.autoreply_changed',
    details: {
      enabled: after.autoreplyEnabled,
      ...(turned ? { turned: after.autoreplyEnabled ? 'on' : 'off' } : {}),
      ...(changed.length > 0 ? { changed: changed.join(', ') } : {}),
    },
  };
}

const DESIGN_PARTS = [
  'theme',
  'accent',
  'title',
  'description',
  'submitLabel',
  'successMessage',
] as const satisfies readonly (keyof FormDesign)[];

function designNote(before: FormRecord, after: FormRecord): AuditNote | undefined {
  const changed = DESIGN_PARTS.filter(
    (part) => (before.design?.[part] ?? null) !== (after.design?.[part] ?? null),
  );
  if (changed.length === 0) return undefined;
  return { action: 'form.design_changed', details: { changed: changed.join(', ') } };
}

function retentionNote(before: FormRecord, after: FormRecord): AuditNote | undefined {
  const keptBefore = before.retentionDays ?? null;
  if (keptBefore === after.retentionDays) return undefined;
  // How long submissions are kept decides when they are deleted (docs/submissions.md#retention):
  // each key left out when they are kept until deleted.
  return {
    action: 'form.retention_changed',
    details: {
      ...(after.retentionDays === null ? {} : { retentionDays: after.retentionDays }),
      ...(keptBefore === null ? {} : { previousRetentionDays: keptBefore }),
    },
  };
}

/** The audit notes of one save, in this order; none for a save that changed none of these. */
export function formChangeNotes(before: FormRecord, after: FormRecord): AuditNote[] {
  return [
    notifyNote(before, after),
    fieldsNote(before, after),
    autoreplyNote(before, after),
    designNote(before, after),
    retentionNote(before, after),
  ].filter((note): note is AuditNote => note !== undefined);
}
