/// <reference lib="dom" />
import { DEFAULT_RETRY_WINDOW } from '#domain/retry-window.ts';

/**
 * The retry window in the dashboard's words: the shell names it from the
 * deployment's own schedule (`webhookRetryDelaysSeconds`) in
 * `<meta name="webhook-retry-window">`, so the webhook screen and a
 * submission's delivery say what this service's worker does
 * (docs/delivery.md#retries); the default's words where there is no shell
 * (unit tests).
 */
export const RETRY_WINDOW =
  globalThis.document?.querySelector<HTMLMetaElement>('meta[name="webhook-retry-window"]')
    ?.content || DEFAULT_RETRY_WINDOW;
