import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { EmulatorHandle } from './handle.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';
import { type SentEmail, type SesBusEvent, simulatedEvents } from './ses-simulator.ts';
import { LocalTenants } from './ses-tenants.ts';

/** The package's CommonJS exports. `require` reads them the same way under Node and Vite. */
interface SesLocalModule {
  default: (config: { host: string; port: number }) => Promise<Server>;
}
const sesLocal = createRequire(import.meta.url)('aws-ses-v2-local') as SesLocalModule;

export interface SesOptions {
  /** 0 picks a free port. */
  port: number;
  /** Named in the error when the port is taken. */
  portFlag?: string;
  /** A JSON-lines file that keeps the captured mail across restarts; in memory when absent. */
  inboxFile?: string;
  /**
   * Where the events SES would publish for an email sent with a configuration
   * set go (ses-simulator.ts); none: no events.
   */
  onEvents?: (events: SesBusEvent[]) => Promise<void>;
}

export interface SesHandle extends EmulatorHandle {
  /** Web page listing the captured mail. */
  inboxUrl: string;
  /** JSON of every captured mail (`GET`); `POST /clear-store` empties it. */
  storeUrl: string;
}

/**
 * SES v2 (aws-ses-v2-local, in-process): mail is captured, never sent. Its store lives in the
 * module, so every instance in one Node process shares the same mail.
 */
export async function startSes(options: SesOptions): Promise<SesHandle> {
  const startedAt = performance.now();
  await assertPortFree(options.port, 'SES', options.portFlag ?? '--ses-port');
  if (options.inboxFile) keepInbox(options.inboxFile);
  // The package's default host is '::' (every interface). Behind the front, on a port of its own.
  const inner = await sesLocal.default({ host: LOOPBACK, port: 0 });
  // A failed listen still resolves (Express hands the error to the callback): check.
  const innerAddress = inner.address();
  if (!inner.listening || innerAddress === null || typeof innerAddress === 'string') {
    await close(inner);
    throw new Error(`SES emulator could not listen on ${LOOPBACK}`);
  }
  const server = await startFront(options.port, `http://${LOOPBACK}:${innerAddress.port}`, options);
  const address = server.address();
  if (address === null || typeof address === 'string') {
    await Promise.all([close(server), close(inner)]);
    throw new Error(`SES emulator could not listen on ${LOOPBACK}:${options.port}`);
  }
  const endpoint = `http://${LOOPBACK}:${address.port}`;
  return {
    endpoint,
    port: address.port,
    inboxUrl: `${endpoint}/`,
    storeUrl: `${endpoint}/store`,
    startupMs: Math.round(performance.now() - startedAt),
    stop: async () => {
      await Promise.all([close(server), close(inner)]);
    },
  };
}

/** SES v2 SendEmail's path. */
const SEND_EMAIL = '/v2/email/outbound-emails';

/**
 * The emulator's front: every request passes to aws-ses-v2-local as it
 * came, and a SendEmail that SES accepted also yields the events SES would
 * publish (the package keeps neither the configuration set nor the tags).
 */
function startFront(port: number, innerUrl: string, options: SesOptions): Promise<Server> {
  const tenants = new LocalTenants();
  const server = createServer(async (request, response) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const [path = '/', search = ''] = (request.url ?? '/').split('?');
      if (request.method === 'GET' && path === '/tenants') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ tenants: tenants.list() }));
        return;
      }
      if (request.method === 'GET' && path === '/calls') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ calls: tenants.calls() }));
        return;
      }
      const parsed = parseJson(body);
      // Test controls: the whole account paused, an operation failing as an unreachable SES.
      if (request.method === 'POST' && (path === '/account/sending' || path === '/faults')) {
        if (path === '/account/sending') {
          tenants.setAccountSending(parsed.status === 'DISABLED' ? 'DISABLED' : 'ENABLED');
        } else {
          for (const [operation, failing] of Object.entries(parsed)) {
            // true for every tenant, or a tenant's name for that tenant only.
            tenants.setFault(
              operation,
              failing === true || (typeof failing === 'string' && failing.length <= 64)
                ? failing
                : false,
            );
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(parsed));
        return;
      }
      const sending = /^\/tenants\/([^/]+)\/sending$/.exec(path);
      if (request.method === 'POST' && sending) {
        const status = parsed.status === 'DISABLED' ? 'DISABLED' : 'ENABLED';
        const known = tenants.setSending(decodeURIComponent(sending[1]!), status);
        response.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status }));
        return;
      }
      const own =
        tenants.answer(request.method ?? 'GET', path, parsed, new URLSearchParams(search)) ??
        (request.method === 'POST' && path === SEND_EMAIL
          ? tenants.refusesSend(
              typeof parsed.TenantName === 'string' ? parsed.TenantName : undefined,
            )
          : undefined);
      if (!own && path === SEND_EMAIL && typeof parsed.TenantName === 'string') {
        tenants.noteSend(parsed.TenantName);
      }
      if (own) {
        response.writeHead(own.status, {
          'content-type': 'application/json',
          ...(own.errorType ? { 'x-amzn-errortype': own.errorType } : {}),
        });
        response.end(JSON.stringify(own.body));
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
          headers.set(name, value);
        }
      }
      const answer = await fetch(`${innerUrl}${request.url ?? '/'}`, {
        method: request.method,
        headers,
        body: body.length > 0 ? body : undefined,
        redirect: 'manual',
      });
      const answered = Buffer.from(await answer.arrayBuffer());
      if (request.method === 'POST' && path === SEND_EMAIL && answer.ok) {
        const { MessageId } = JSON.parse(answered.toString('utf8')) as { MessageId: string };
        tenants.noteAccepted(MessageId, parsed);
      }
      if (
        options.onEvents &&
        request.method === 'POST' &&
        request.url === SEND_EMAIL &&
        answer.ok
      ) {
        const { MessageId } = JSON.parse(answered.toString('utf8')) as { MessageId: string };
        const events = simulatedEvents(
          JSON.parse(body.toString('utf8')) as SentEmail,
          MessageId,
          new Date(),
        );
        if (typeof parsed.TenantName === 'string') tenants.noteEvents(parsed.TenantName, events);
        // After the answer, as SES publishes after it accepted: a failed hand-over is the
        // emulator's problem, logged, never the sender's.
        if (events.length > 0) {
          setImmediate(() => {
            options
              .onEvents?.(events)
              .catch((error: unknown) =>
                console.error('SES emulator: events not handed over', error),
              );
          });
        }
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (
          !['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(name)
        ) {
          out[name] = value;
        }
      });
      response.writeHead(answer.status, out);
      response.end(answered);
    } catch (error) {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`SES emulator front: ${String(error)}`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The package's mail store module (CommonJS: its exports are read at each call). */
interface SesStoreModule {
  saveEmail: (email: unknown) => void;
  clearStore: () => void;
  getStoreReadonly: () => { emails: unknown[] };
}
const sesStore = createRequire(import.meta.url)('aws-ses-v2-local/dist/store.js') as SesStoreModule;
let keptIn: string | undefined;

/**
 * The captured mail, kept in `file` (one email a line): read back at start,
 * each new email appended as it is captured, emptied when the store is.
 * The module's store is one per process, so the file is wired once.
 */
function keepInbox(file: string): void {
  if (keptIn === file) return;
  keptIn = file;
  const emails = sesStore.getStoreReadonly().emails;
  emails.length = 0;
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim()) emails.push(JSON.parse(line));
    }
  }
  const save = sesStore.saveEmail;
  sesStore.saveEmail = (email) => {
    save(email);
    appendFileSync(file, `${JSON.stringify(email)}\n`);
  };
  const clear = sesStore.clearStore;
  sesStore.clearStore = () => {
    clear();
    writeFileSync(file, '');
  };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive sockets from SDK clients would otherwise hold close() open.
    server.closeAllConnections();
  });
}

/** A request body as JSON, or nothing (a GET, a form post of the v1 API). */
function parseJson(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
