import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FieldDefinition, FormRecord } from './form-model.ts';
import type { Issue } from './validation-issues.ts';
import { MIN_SECRET_LENGTH } from './visitor-ip.ts';

/**
 * Confirm by email (docs/forms.md#confirm-by-email): a form whose
 * `confirmEmail` names an email field stores each clean post as `pending`,
 * sends one email with a signed link to the address answered, and counts
 * and delivers the submission only once the visitor opens the link and
 * presses its button. Pure: the token, the states and the save checks.
 */

/** The default of `confirmLinkSeconds`: a link works 48 hours after the post. */
export const CONFIRM_LINK_SECONDS = 172_800;

/** When a pending submission's link stops working (ms), from its post's time. */
export function confirmExpiresAt(requestedAt: string, linkSeconds: number): number {
  return Date.parse(requestedAt) + linkSeconds * 1000;
}

/**
 * The save checks of `confirmEmail` (and of `unique`, which names its field
 * the same way): the field exists, is an `email` field, is required, and is
 * asked of every visitor (no `showIf`, not on a page shown only sometimes),
 * so every post carries the address. Refused at `<setting>.field`, also when
 * a save removes or changes such a field without clearing the setting.
 */
export function emailFieldSettingIssues(
  setting: 'confirmEmail' | 'unique',
  value: { field: string } | null | undefined,
  form: Pick<FormRecord, 'fields' | 'pages'>,
): Issue[] {
  if (!value) return [];
  const path = `${setting}.field`;
  const field = (form.fields ?? []).find((each) => each.id === value.field);
  const problem = fieldProblem(field, form);
  return problem ? [{ path, code: 'custom', message: problem }] : [];
}

function fieldProblem(
  field: FieldDefinition | undefined,
  form: Pick<FormRecord, 'pages'>,
): string | undefined {
  if (!field) return 'Must name a field of the form';
  if (field.type !== 'email') return 'Must name an email field';
  if (field.required !== true) return 'Must name a required field';
  if (field.showIf) return 'Must name a field every visitor is asked (without showIf)';
  // Rules may skip any page but the first: only the first page is every visitor's.
  const pages = form.pages ?? [];
  if (pages.length > 1 && !pages[0]!.fields.includes(field.id)) {
    return 'Must name a field of the first page, which every visitor sees';
  }
  return undefined;
}

/**
 * What a confirmation link names: the team, form and submission, and when
 * it stops working (epoch seconds).
 */
export interface ConfirmLink {
  teamId: string;
  formId: string;
  submissionId: string;
  expiresAt: number;
}

/** A token is at most this long; a longer path is not one (bounded before any work). */
export const MAX_CONFIRM_TOKEN_LENGTH = 400;

/**
 * The token's key: an HMAC of its own label under the deployment's
 * keyed-hash secret, so a token matches no other keyed hash the secret makes.
 */
function tokenKey(secret: string): Buffer {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`the keyed-hash secret must hold at least ${MIN_SECRET_LENGTH} characters`);
  }
  return createHmac('sha256', secret).update('confirm-link:v1').digest();
}

const ID_PART = /^[A-Za-z0-9_-]{1,64}$/;

/** `<payload>.<signature>`, both base64url: the payload the ids and expiry joined by `.`. */
export function confirmToken(secret: string, link: ConfirmLink): string {
  for (const id of [link.teamId, link.formId, link.submissionId]) {
    if (!ID_PART.test(id)) throw new Error('an id a confirmation link cannot carry');
  }
  const payload = Buffer.from(
    [link.teamId, link.formId, link.submissionId, String(link.expiresAt)].join('.'),
  ).toString('base64url');
  return `${payload}.${signature(secret, payload).toString('base64url')}`;
}

function signature(secret: string, payload: string): Buffer {
  return createHmac('sha256', tokenKey(secret)).update(payload).digest();
}

/**
 * What a token says: `valid` with its link, `expired` (signed, past its
 * time: the link is still named, for the way to send the form again), or
 * `forged` (malformed, or not signed by this deployment).
 */
export type TokenReading =
  | { status: 'valid'; link: ConfirmLink }
  | { status: 'expired'; link: ConfirmLink }
  | { status: 'forged' };

export function readConfirmToken(secret: string, token: string, now: Date): TokenReading {
  if (token.length > MAX_CONFIRM_TOKEN_LENGTH) return { status: 'forged' };
  const [payload, signed, ...rest] = token.split('.');
  if (!payload || !signed || rest.length > 0) return { status: 'forged' };
  const given = Buffer.from(signed, 'base64url');
  const expected = signature(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 'forged' };
  }
  const parts = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  const [teamId, formId, submissionId, expires] = parts;
  const expiresAt = Number(expires);
  if (
    parts.length !== 4 ||
    ![teamId, formId, submissionId].every((id) => id !== undefined && ID_PART.test(id)) ||
    !Number.isSafeInteger(expiresAt)
  ) {
    return { status: 'forged' };
  }
  const link: ConfirmLink = {
    teamId: teamId!,
    formId: formId!,
    submissionId: submissionId!,
    expiresAt,
  };
  return now.getTime() >= expiresAt * 1000
    ? { status: 'expired', link }
    : { status: 'valid', link };
}

/** The address of the confirmation page of a token. */
export function confirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/c/${token}`;
}

/** One confirmation email to one address (its mailbox) from one form in this many seconds. */
export const CONFIRMATION_ADDRESS_SECONDS = 86_400;

/**
 * What the click did (POST /c/{token}), each a page in words with its
 * status (docs/submit.md#confirm-by-email).
 */
export type ConfirmOutcome =
  | 'confirmed'
  | 'already_confirmed'
  | 'expired'
  | 'not_valid'
  | 'full'
  | 'closed'
  | 'already_answered';

export const CONFIRM_OUTCOME_STATUS: Record<ConfirmOutcome, number> = {
  confirmed: 200,
  already_confirmed: 200,
  expired: 410,
  not_valid: 404,
  full: 409,
  closed: 409,
  already_answered: 409,
};

/** The words of each outcome's page: a title and one sentence. */
export const CONFIRM_OUTCOME_WORDS: Record<ConfirmOutcome, { title: string; message: string }> = {
  confirmed: {
    title: 'Thank you, your answer is confirmed',
    message: 'Your answer has been received.',
  },
  already_confirmed: {
    title: 'Your answer is already confirmed',
    message: 'There is nothing more to do: your answer was received.',
  },
  expired: {
    title: 'This link has expired',
    message: 'Your answer was not confirmed in time and was not kept. You can send the form again.',
  },
  not_valid: {
    title: 'This link is not valid',
    message:
      'This link was not made by this service, or its answer is no longer kept. Nothing was changed.',
  },
  full: {
    title: 'This form is full',
    message: 'It takes no more answers, so yours could not be confirmed. Nothing was changed.',
  },
  closed: {
    title: 'This form is not taking answers now',
    message:
      'It was closed, or has reached its limit, so yours could not be confirmed. Nothing was changed.',
  },
  already_answered: {
    title: 'You have already answered this form',
    message: 'This form takes one answer per email address. Nothing was changed.',
  },
};
