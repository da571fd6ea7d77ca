import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import * as z from 'zod/mini';
import { inEnglish } from './validation-issues.ts';

export type WebhookState = 'active' | 'failing';

export interface Webhook {
  formId: string;
  url: string;
  /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
  secret: string;
  state: WebhookState;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  /** While set, the receiver was slow lately: one delivery at a time (slow-receivers.ts). */
  slowUntil?: string;
}

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Hosts a webhook may never target: delivery re-checks resolved addresses
 * too. Where loopback is allowed (the local stack only), `localhost` and
 * loopback addresses are taken, so a developer can point a webhook at a
 * receiver on their own machine.
 */
function isRefusedHost(hostname: string, allowLoopback: boolean): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowLoopback && (host === 'localhost' || isLoopbackAddress(host))) return false;
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  )
    return true;
  return isIP(host) !== 0;
}

const isLoopbackAddress = (host: string) =>
  (isIP(host) === 4 && host.startsWith('127.')) || host === '::1';

/** `PUT /v1/forms/{id}/webhook`'s body; loopback targets only where the deployment allows them. */
export const webhookInput = (options: { allowLoopback: boolean }) =>
  inEnglish(
    z.strictObject({
      url: z.string().check(
        z.maxLength(2048, 'Must be at most 2,048 characters'),
        z.refine((value) => URL.canParse(value), 'Must be a URL'),
        z.refine((value) => value.startsWith('https://'), 'Must start with https://'),
        z.refine(
          (value) =>
            !URL.canParse(value) || !isRefusedHost(new URL(value).hostname, options.allowLoopback),
          { message: 'Must name a public host, not an IP address or a local name' },
        ),
      ),
    }),
  );

export function connectWebhook(formId: string, url: string, now: Date): Webhook {
  const at = now.toISOString();
  return {
    formId,
    url,
    secret: newSigningSecret(),
    state: 'active',
    lastError: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** A new URL keeps the secret (docs/delivery.md#webhook-secret) and starts the webhook afresh. */
export function changeWebhookUrl(webhook: Webhook, url: string, now: Date): Webhook {
  return { ...webhook, url, state: 'active', lastError: null, updatedAt: now.toISOString() };
}

export function rotateWebhookSecret(webhook: Webhook, now: Date): Webhook {
  return { ...webhook, secret: newSigningSecret(), updatedAt: now.toISOString() };
}

/** A duplicated form's webhook: same URL, its own secret. */
export function copyWebhook(webhook: Webhook, formId: string, now: Date): Webhook {
  return connectWebhook(formId, webhook.url, now);
}

export function toWebhookView(webhook: Webhook) {
  const { formId, url, secret, state, lastError, createdAt, updatedAt } = webhook;
  return { formId, url, secret, state, lastError, createdAt, updatedAt };
}
