import type { FormRecord } from './form-model.ts';

type Notifying = Pick<FormRecord, 'notifyEmail' | 'notifyCc' | 'notifyRules'>;

/** Each address a form's routing rules name, once, comma-separated. */
function routedAddresses(rules: Notifying['notifyRules'] | undefined): string {
  const seen = new Set<string>();
  for (const rule of rules ?? []) for (const address of rule.to) seen.add(address);
  return [...seen].join(', ');
}

/**
 * What the audit trail keeps of a change of where a form's notifications go
 * (`form.notify_email_changed`, docs/people.md#teams-members-keys-and-the-audit-trail),
 * or undefined when they go where they went: the new and previous
 * `notifyEmail`; when the other recipients changed, `notifyCc` and
 * `previousCc`; when the routing rules changed (their conditions too: they
 * decide who reads which answers), their count and every address they name
 * (`notifyRules`, `routedTo`, `previousRoutedTo`). Addresses only.
 */
export function notificationChange(
  before: Notifying,
  after: Notifying,
): Record<string, string | number> | undefined {
  const ccBefore = (before.notifyCc ?? []).join(', ');
  const ccAfter = (after.notifyCc ?? []).join(', ');
  const rulesChanged =
    JSON.stringify(before.notifyRules ?? []) !== JSON.stringify(after.notifyRules ?? []);
  if (before.notifyEmail === after.notifyEmail && ccBefore === ccAfter && !rulesChanged) {
    return undefined;
  }
  return {
    notifyEmail: after.notifyEmail ?? '',
    previous: before.notifyEmail ?? '',
    ...(ccBefore !== ccAfter ? { notifyCc: ccAfter, previousCc: ccBefore } : {}),
    ...(rulesChanged
      ? {
          notifyRules: (after.notifyRules ?? []).length,
          routedTo: routedAddresses(after.notifyRules),
          previousRoutedTo: routedAddresses(before.notifyRules),
        }
      : {}),
  };
}
