import { createSign } from 'node:crypto';
import { config } from '#config';
import type { ServiceAccountKey } from '#domain/google-key.ts';
import type { AttemptResult } from '#domain/webhook-delivery.ts';
import { attemptOf, GOOGLE_TIMEOUT_MS, googleExchange, googleReason } from './google-http.ts';

/**
 * An access token for the Sheets API from the service account's key
 * (docs/integrations.md#google-cloud-setup): a JWT signed RS256 with
 * node:crypto, exchanged at the token URL with the jwt-bearer grant
 * (Google's "service account" flow), and kept until shortly before it
 * expires, so one token serves many rows of a container's life.
 */

export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google refuses an assertion whose `exp` is more than an hour after its `iat`. */
export const ASSERTION_LIFETIME_SECONDS = 3600;
/** A token is replaced this long before Google says it expires (a call in flight must not outlive it). */
export const TOKEN_REFRESH_MARGIN_SECONDS = 300;

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The signed JWT that asks for a token: `iss` the account, `aud` the token URL, an hour at most. */
export function signedAssertion(
  key: ServiceAccountKey,
  tokenUrl: string,
  nowSeconds: number,
): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({
      iss: key.clientEmail,
      scope: SHEETS_SCOPE,
      aud: tokenUrl,
      iat: nowSeconds,
      exp: nowSeconds + ASSERTION_LIFETIME_SECONDS,
    }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(key.privateKey);
  return `${header}.${claims}.${base64url(signature)}`;
}

export type TokenAnswer =
  | { kind: 'token'; accessToken: string }
  | { kind: 'failed'; attempt: AttemptResult; reason: string };

interface Kept {
  accessToken: string;
  /** Epoch seconds after which it is not used. */
  renewAt: number;
}

export class GoogleTokenSource {
  readonly #key: ServiceAccountKey;
  readonly #tokenUrl: string;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  #kept: Kept | undefined;
  #pending: Promise<TokenAnswer> | undefined;

  constructor(options: {
    key: ServiceAccountKey;
    tokenUrl: string;
    timeoutMs?: number;
    /** Epoch milliseconds; the seam a test moves. */
    now?: () => number;
  }) {
    this.#key = options.key;
    this.#tokenUrl = options.tokenUrl;
    this.#timeoutMs = options.timeoutMs ?? GOOGLE_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
  }

  get clientEmail(): string {
    return this.#key.clientEmail;
  }

  /** The kept token while it has time left, else a new one (calls at once share one exchange). */
  token(): Promise<TokenAnswer> {
    const nowSeconds = Math.floor(this.#now() / 1000);
    if (this.#kept && nowSeconds < this.#kept.renewAt) {
      return Promise.resolve({ kind: 'token', accessToken: this.#kept.accessToken });
    }
    this.#pending ??= this.#exchange(nowSeconds).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets `accessToken` after Google refused it (401); a newer token is kept. */
  drop(accessToken: string): void {
    if (this.#kept?.accessToken === accessToken) this.#kept = undefined;
  }

  async #exchange(nowSeconds: number): Promise<TokenAnswer> {
    const body = new URLSearchParams({
      grant_type: JWT_BEARER_GRANT,
      assertion: signedAssertion(this.#key, this.#tokenUrl, nowSeconds),
    });
    const exchange = await googleExchange(
      this.#tokenUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      },
      this.#timeoutMs,
    );
    const answer = (exchange.kind === 'response' ? exchange.json : undefined) as
      | { access_token?: unknown; expires_in?: unknown }
      | undefined;
    if (
      exchange.kind !== 'response' ||
      exchange.status !== 200 ||
      typeof answer?.access_token !== 'string' ||
      answer.access_token === ''
    ) {
      const attempt = attemptOf(exchange);
      // A 200 without a token is Google misbehaving, not the key: retried like a 502.
      const failed =
        attempt.kind === 'response' && attempt.status === 200
          ? ({ kind: 'response', status: 502 } as const)
          : attempt;
      return { kind: 'failed', attempt: failed, reason: `token: ${googleReason(exchange)}` };
    }
    const lifetime =
      typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3600;
    const margin = Math.min(TOKEN_REFRESH_MARGIN_SECONDS, Math.floor(lifetime / 2));
    this.#kept = { accessToken: answer.access_token, renewAt: nowSeconds + lifetime - margin };
    return { kind: 'token', accessToken: answer.access_token };
  }
}

let containerTokens: GoogleTokenSource | undefined;

/**
 * The container's token source for the configured key and token URL, made
 * on first use and kept (module scope, like the AWS clients); undefined
 * when the deployment has no key.
 */
export function googleTokens(): GoogleTokenSource | undefined {
  const key = config.googleServiceAccount;
  if (!key) return undefined;
  if (containerTokens?.clientEmail !== key.clientEmail) {
    containerTokens = new GoogleTokenSource({
      key,
      tokenUrl: config.googleOauthTokenUrl,
      timeoutMs: config.receiverTimeoutMs,
    });
  }
  return containerTokens;
}
