import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { EmulatorHandle } from './handle.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';

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
  // The package's default host is '::' (every interface).
  const server = await sesLocal.default({ host: LOOPBACK, port: options.port });
  // A failed listen still resolves (Express hands the error to the callback): check.
  const address = server.address();
  if (!server.listening || address === null || typeof address === 'string') {
    await close(server);
    throw new Error(`SES emulator could not listen on ${LOOPBACK}:${options.port}`);
  }
  const endpoint = `http://${LOOPBACK}:${address.port}`;
  return {
    endpoint,
    port: address.port,
    inboxUrl: `${endpoint}/`,
    storeUrl: `${endpoint}/store`,
    startupMs: Math.round(performance.now() - startedAt),
    stop: () => close(server),
  };
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
