import { ServiceError } from './errors.ts';
import {
  DEFAULT_AUTOREPLY_HOURLY_LIMIT,
  DEFAULT_NOTIFY_FROM_NAME,
  DEFAULT_UPLOAD_LIMIT_MB,
} from './form-defaults.ts';
import type { FormUpdate } from './form-update-input.ts';
import type { Issue } from './validation-issues.ts';

export type PlanName = 'free' | 'pro';

/**
 * Which values of an update need Pro. Only what the request sets counts:
 * turning a Pro setting off (null, false, the default) is always allowed, and
 * a team that dropped to Free can still edit other settings of a form that
 * keeps Pro values from before.
 *
 * `completionMode` is Free (docs/api-basics.md#pro-settings: the completion
 * title, message and `redirectUrl` are Pro, not the mode): a Free form in
 * `message` mode shows the default copy, and one in `redirect` mode (possible only with a URL
 * kept from Pro days) shows the thank-you page, because the submit path
 * redirects for Pro teams only (`redirectTarget`).
 */
const PRO_WHEN: { [K in keyof FormUpdate]?: (value: NonNullable<FormUpdate[K]>) => boolean } = {
  closedMessage: () => true,
  notifyEmail: () => true,
  // An empty list is the default (nobody besides notifyEmail): always allowed.
  notifyCc: (value) => value.length > 0,
  // Routing by answer; an empty list (no rules) is the default.
  notifyRules: (value) => value.length > 0,
  notifyFromName: (value) => value !== DEFAULT_NOTIFY_FROM_NAME,
  autoreplyEnabled: (value) => value,
  autoreplySubject: () => true,
  autoreplyBody: () => true,
  autoreplyAnswerPlaceholders: (value) => value,
  autoreplyHourlyLimit: (value) => value !== DEFAULT_AUTOREPLY_HOURLY_LIMIT,
  completionTitle: () => true,
  completionMessage: () => true,
  redirectUrl: () => true,
  allowUploads: (value) => value,
  uploadLimitMb: (value) => value !== DEFAULT_UPLOAD_LIMIT_MB,
};

/** Every setting that needs Pro for some value (the dashboard shows them so). */
export const PRO_SETTINGS = Object.keys(PRO_WHEN) as (keyof FormUpdate)[];

/** Names of the settings in `update` that a Free team may not set, in a stable order. */
export function proSettingsIn(update: FormUpdate): string[] {
  return Object.entries(PRO_WHEN)
    .filter(([key, needsPro]) => {
      const value = update[key as keyof FormUpdate];
      // null clears; the predicates only ever see a value being set.
      return value !== undefined && value !== null && (needsPro as (v: unknown) => boolean)(value);
    })
    .map(([key]) => key);
}

/** 402 `plan_required` naming every Pro setting in the request, before anything is applied. */
export function assertPlanAllows(update: FormUpdate, plan: PlanName): void {
  if (plan === 'pro') return;
  const settings = proSettingsIn(update);
  if (settings.length === 0) return;
  const issues: Issue[] = settings.map((path) => ({
    path,
    code: 'plan_required',
    message: 'Needs the Pro plan',
  }));
  throw new ServiceError('plan_required', `Changing ${settings.join(', ')} needs the Pro plan`, {
    issues,
  });
}
