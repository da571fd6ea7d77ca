import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { type BuildAppOptions, buildApp } from 'fauxqs';
import type { EmulatorHandle } from './handle.ts';
import { attachMalwareScanner, type MalwareScannerOptions } from './malware-scanner.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';

export interface SqsS3Options {
  /** 0 picks a free port. */
  port: number;
  /** Named in the error when the port is taken. */
  portFlag?: string;
  /**
   * Where queues (their messages, in flight ones with their visibility and
   * receive counts) and S3 objects are kept across restarts (fauxqs's SQLite
   * persistence); in memory when absent.
   */
  dataDir?: string;
  /** The scanner emulator on the uploads bucket (malware-scanner.ts), unless scanning is off. */
  scanner?: Omit<MalwareScannerOptions, 'read'>;
}

type Stores = NonNullable<BuildAppOptions['stores']>;

/** The largest direct upload (100 MB) plus the policy fields around it. */
const POST_OBJECT_BODY_LIMIT = 101 * 1024 * 1024;

/**
 * SQS and S3 on one port (fauxqs, in-process, state in memory). S3 clients need
 * `forcePathStyle: true`: virtual-hosted bucket names under 127.0.0.1 cannot resolve.
 * Queue URLs are `http://127.0.0.1:<port>/000000000000/<name>`.
 */
export async function startSqsS3(
  options: SqsS3Options,
): Promise<EmulatorHandle & { endReceives(): void }> {
  const startedAt = performance.now();
  await assertPortFree(options.port, 'SQS and S3 (fauxqs)', options.portFlag ?? '--sqs-port');
  // Not startFauxqs(): it always listens on 0.0.0.0. Its persistence is wired as it wires it.
  const stores = await storesWithPlainQueueUrls();
  const persistence = options.dataDir ? await persistenceIn(options.dataDir, stores) : undefined;
  const app = buildApp({ logger: false, stores });
  if (persistence) app.addHook('preClose', () => persistence.close());
  // Browser POSTs of direct uploads (multipart/form-data, up to 100 MB a file) exceed
  // fauxqs's 11 MiB body limit; S3 itself bounds them by the signed policy.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: POST_OBJECT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  answerBucketCors(app);
  if (options.scanner) {
    const { s3Store } = stores as unknown as {
      s3Store: {
        getObject(
          bucket: string,
          key: string,
        ): { body: Buffer; etag: string; contentDisposition?: string };
        hasBucket(bucket: string): boolean;
        listObjects(
          bucket: string,
          options: { prefix: string; maxKeys: number },
        ): { objects: { key: string }[] };
      };
    };
    attachMalwareScanner(app, {
      ...options.scanner,
      read: (bucket, key) => {
        try {
          return s3Store.getObject(bucket, key);
        } catch {
          return undefined; // NoSuchKey, NoSuchBucket
        }
      },
      list: (bucket, prefix) =>
        s3Store.hasBucket(bucket)
          ? s3Store
              .listObjects(bucket, { prefix, maxKeys: 1_000_000 })
              .objects.map((object) => object.key)
          : [],
      tagsFile: options.dataDir ? join(options.dataDir, 'scanner-tags.json') : undefined,
    });
  }
  await app.listen({ port: options.port, host: LOOPBACK });
  const address = app.server.address();
  if (address === null || typeof address === 'string') {
    await app.close();
    throw new Error('fauxqs did not report a TCP address');
  }
  return {
    endpoint: `http://${LOOPBACK}:${address.port}`,
    port: address.port,
    startupMs: Math.round(performance.now() - startedAt),
    // Every long-poll receive waiting for a message returns now, with what the queue holds at
    // that moment (often nothing): the local pollers' 20 s waits do not hold up a stop.
    endReceives: () => stores.sqsStore.shutdown(),
    stop: async () => {
      await app.close();
    },
  };
}

type App = ReturnType<typeof buildApp>;

/**
 * fauxqs knows no CORS, so a browser could not post a direct upload from the
 * hosted page or an embed (XMLHttpRequest with upload progress sends a
 * preflight). This answers as S3 does with the uploads bucket's one CORS
 * rule (lib/constructs/storage.ts: POST from any origin, any header, max age
 * 3000): a preflight asking for POST gets 200 with the rule's headers, any
 * other a 403; a POST carrying an Origin gets `Access-Control-Allow-Origin: *`.
 */
function answerBucketCors(app: App): void {
  const vary = 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method';
  app.addHook('onRequest', (request, reply, done) => {
    const method = request.headers['access-control-request-method'];
    if (request.method !== 'OPTIONS' || !request.headers.origin || !method) return done();
    if (method !== 'POST') {
      void reply
        .code(403)
        .header('content-type', 'application/xml')
        .send(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessForbidden</Code><Message>CORSResponse: This CORS request is not allowed.</Message></Error>',
        );
      return;
    }
    const headers = request.headers['access-control-request-headers'];
    void reply
      .code(200)
      .headers({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST',
        ...(headers ? { 'access-control-allow-headers': headers } : {}),
        'access-control-max-age': '3000',
        vary,
      })
      .send();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'POST' && request.headers.origin) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-allow-methods', 'POST');
      reply.header('vary', vary);
    }
    done(null, payload);
  });
}

interface Persistence {
  close(): void;
  load(sqs: Stores['sqsStore'], sns: Stores['snsStore'], s3: Stores['s3Store']): void;
}

/**
 * fauxqs's SQLite persistence under `dataDir`, loaded into the stores and
 * wired into them (and every queue loaded) as `startFauxqs({ dataDir })`
 * does: state loads first, so loading writes nothing back.
 */
async function persistenceIn(dataDir: string, stores: Stores): Promise<Persistence> {
  const module = (await import(
    new URL('./persistence.js', import.meta.resolve('fauxqs')).href
  )) as {
    PersistenceManager?: new (dir: string) => Persistence;
  };
  if (typeof module.PersistenceManager !== 'function') {
    throw new Error('fauxqs changed its layout: no PersistenceManager in ./persistence.js');
  }
  const persistence = new module.PersistenceManager(dataDir);
  releaseKeepsReceiveCount(persistence);
  persistence.load(stores.sqsStore, stores.snsStore, stores.s3Store);
  const wired = (target: unknown) => {
    (target as { persistence: Persistence }).persistence = persistence;
  };
  wired(stores.sqsStore);
  wired(stores.snsStore);
  wired(stores.s3Store);
  for (const queue of (stores.sqsStore as unknown as { allQueues(): unknown[] }).allQueues()) {
    wired(queue);
  }
  return persistence;
}

/**
 * fauxqs 2.4.1 writes a message made visible again (ChangeMessageVisibility to 0, as the
 * admin CLI's DLQ tools release what they showed) with a NULL receive count, which its own
 * schema refuses: the call fails after the message left memory, so it is lost until the next
 * start. Only the receipt and the deadline are cleared here; the count stays.
 */
function releaseKeepsReceiveCount(persistence: Persistence): void {
  const { db } = persistence as unknown as { db?: DatabaseSync };
  if (!db) throw new Error('fauxqs changed its layout: its PersistenceManager has no db');
  const ready = db.prepare(
    'UPDATE sqs_messages SET receipt_handle = NULL, visibility_deadline = NULL WHERE message_id = ?',
  );
  (persistence as unknown as { updateMessageReady(id: string): void }).updateMessageReady = (
    messageId,
  ) => {
    ready.run(messageId);
  };
}

/**
 * fauxqs names queues `http://sqs.<region>.localhost:<port>/...` by default. Those names do
 * not resolve everywhere, and the SQS SDK sends requests to the queue URL's host whenever it
 * differs from an endpoint set through AWS_ENDPOINT_URL_SQS. An empty store host makes queue
 * URLs echo the request's Host instead, i.e. the endpoint the client used. The store classes
 * are not exported, so they are loaded from next to the package's entry point (pinned version).
 */
async function storesWithPlainQueueUrls(): Promise<Stores> {
  const entry = import.meta.resolve('fauxqs');
  const load = async <T>(path: string, name: string): Promise<new () => T> => {
    const module = (await import(new URL(path, entry).href)) as Record<string, unknown>;
    const storeClass = module[name];
    if (typeof storeClass !== 'function') {
      throw new Error(`fauxqs changed its layout: no ${name} in ${path}`);
    }
    return storeClass as new () => T;
  };
  const [SqsStore, SnsStore, S3Store] = await Promise.all([
    load<Stores['sqsStore']>('./sqs/sqsStore.js', 'SqsStore'),
    load<Stores['snsStore']>('./sns/snsStore.js', 'SnsStore'),
    load<Stores['s3Store']>('./s3/s3Store.js', 'S3Store'),
  ]);
  const sqsStore = new SqsStore();
  sqsStore.host = '';
  return { sqsStore, snsStore: new SnsStore(), s3Store: new S3Store() };
}
