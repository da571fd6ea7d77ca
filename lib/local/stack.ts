import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import {
  type CapSettings,
  concurrencyCap,
  WEBHOOK_WORKER_MAX_CONCURRENCY,
  workers,
} from '#workers';
import { startChatReceivers } from './emulators/chat.ts';
import { startDynamoDbLocal } from './emulators/dynamodb.ts';
import { startGoogle } from './emulators/google.ts';
import { assertPortFree } from './emulators/ports.ts';
import { startScheduler } from './emulators/scheduler.ts';
import { startSes } from './emulators/ses.ts';
import type { SesBusEvent } from './emulators/ses-simulator.ts';
import { startSqsS3 } from './emulators/sqs-s3.ts';
import { startTurnstile } from './emulators/turnstile.ts';
import {
  googleFromEnvironment,
  LOCAL_BUCKET,
  LOCAL_SCHEDULE_GROUP,
  LOCAL_TABLE,
  localEnvironment,
} from './environment.ts';
import { startGateway } from './gateway.ts';
import { DEV_SERVICE_ACCOUNT, localGoogleKey } from './google-dev-key.ts';
import { localKeyedHashSecret } from './keyed-hash-secret.ts';
import { LOCAL_REGION, loadHandler, localFunctionArn } from './lambda-runtime.ts';
import { loopbackCertificate, trustCertificate } from './loopback-certificate.ts';
import { startQueuePoller } from './queue-poller.ts';
import { ensureBucket, ensureQueues, ensureScheduleGroup, localClients } from './resources.ts';
import { scheduledInvoker } from './scheduled-invoker.ts';
import { streamFailureRecord } from './stream-failures.ts';
import { type StreamPositions, startStreamPoller } from './stream-poller.ts';

/** The local chat receivers' certificate, in the state folder. */
const CHAT_CERTIFICATE_FILE = 'chat-receivers-ca.pem';

export interface LocalPorts {
  gateway: number;
  dynamodb: number;
  sqsS3: number;
  ses: number;
  scheduler: number;
  turnstile: number;
  /** The Slack and Discord receivers (HTTPS webhooks, their page over HTTP). */
  chat: number;
  google: number;
}

export const DEFAULT_PORTS: LocalPorts = {
  gateway: 4010,
  dynamodb: 4011,
  sqsS3: 4012,
  ses: 4013,
  scheduler: 4014,
  turnstile: 4015,
  chat: 4017,
  google: 4016,
};

/** Every port chosen by the system (`--random-ports`, the tests' and benches' own stacks). */
export const RANDOM_PORTS: LocalPorts = {
  gateway: 0,
  dynamodb: 0,
  sqsS3: 0,
  ses: 0,
  scheduler: 0,
  turnstile: 0,
  chat: 0,
  google: 0,
};

/**
 * The sample spreadsheet the local Google emulator starts with, shared with
 * the development service account (docs/integrations.md#local-emulator).
 */
export const LOCAL_SPREADSHEET_ID = 'local-development-spreadsheet';

export interface LocalStackOptions {
  /** Absolute folder for dev.json, the database and pid files. */
  stateDir: string;
  inMemory: boolean;
  ports: LocalPorts;
  logLevel: string;
  /**
   * Whether the table stream feeds its workers (default yes). A bench that
   * seeds 100,000 items and times reads turns it off: the fan-out would
   * spend the machine's cores on the seed for a quarter of an hour.
   */
  tableStream?: boolean;
}

/** What `.local/dev.json` holds: everything a script needs to talk to the local stack. */
export interface LocalStackInfo {
  baseUrl: string;
  apiKeys: { pro: string; free: string };
  teams: { pro: string; free: string };
  mailUrl: string;
  region: string;
  tableName: string;
  uploadsBucket: string;
  scheduleGroup: string;
  endpoints: {
    dynamodb: string;
    sqs: string;
    s3: string;
    ses: string;
    scheduler: string;
    turnstile: string;
    google: string;
  };
  /** The local Slack and Discord receivers (docs/integrations.md#local-receivers). */
  chat: {
    /** Paste into the dashboard as a Slack incoming webhook. */
    slackUrl: string;
    /** Paste into the dashboard as a Discord webhook. */
    discordUrl: string;
    /** The page listing what they got. */
    pageUrl: string;
    /** `{ messages }` as JSON (`DELETE` empties it). */
    messagesUrl: string;
    /** Their certificate (PEM), for a client outside the stack (`curl --cacert`). */
    certificateFile: string;
  };
  /** The local Google emulator (docs/integrations.md#local-emulator); null when GOOGLE_* came from the environment. */
  google: { pageUrl: string; serviceAccount: string; spreadsheetId: string } | null;
  queues: Record<string, { url: string; deadLetterUrl: string }>;
  /** The stream pollers' on-failure destination (docs/operations.md#replaying-the-stream). */
  streamFailureQueueUrl: string;
  inMemory: boolean;
  pid: number;
  readyMs: number;
}

export interface LocalStack {
  info: LocalStackInfo;
  stop(): Promise<void>;
}

const FLAGS: Record<keyof LocalPorts, string> = {
  gateway: '--port',
  dynamodb: '--dynamodb-port',
  sqsS3: '--sqs-port',
  ses: '--ses-port',
  scheduler: '--scheduler-port',
  turnstile: '--turnstile-port',
  chat: '--chat-port',
  google: '--google-port',
};

/** The DynamoDB calls that change items, and so may put records on the table's stream. */
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);

/**
 * Calls `wrote` after each write of the handlers' one DynamoDB client succeeds, so the stream
 * pollers read its records within their 100 ms instead of polling an idle stream ten times a
 * second (that polling spent 6 % of a core, half in this process and half in DynamoDB Local).
 */
function wakeOnWrites(client: DynamoDBClient, wrote: () => void): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (WRITES.has(context.commandName ?? '')) wrote();
      return output;
    },
    { step: 'initialize', name: 'localStreamWake' },
  );
}

/**
 * Stops the workers' pollers together: each lets its receive or read in flight finish, and the
 * receives waiting on an empty queue are ended by the SQS emulator until every poller is done
 * (a receive sent just after one ending would wait its whole 20 s).
 */
async function stopPollers(
  stops: (() => Promise<void>)[],
  endReceives: (() => void) | undefined,
): Promise<void> {
  const stopped = Promise.all(stops.map((stop) => stop().catch(() => undefined)));
  endReceives?.();
  const again = setInterval(() => endReceives?.(), 50);
  await stopped;
  clearInterval(again);
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const startedAt = performance.now();
  // Stop order keeps every acknowledged write: the gateway first (no new request is accepted,
  // the ones in flight finish), then the workers' pollers all at once, then the emulators in
  // reverse start order, and DynamoDB Local last, through its JVM's shutdown path, which
  // commits what it has queued. The pollers stop together: each lets its receive in flight
  // finish (up to its 1 s long poll), and one after another the ten of them took 10 s.
  let stopGateway: (() => Promise<void>) | undefined;
  const pollerStops: (() => Promise<void>)[] = [];
  const stops: (() => Promise<void>)[] = [];
  let stopDynamoDb: (() => Promise<void>) | undefined;
  const track = <T extends { stop(): Promise<void> }>(handle: T): T => {
    stops.push(() => handle.stop());
    return handle;
  };
  let endReceives: (() => void) | undefined;
  const stopAll = async () => {
    const pollers = pollerStops.splice(0);
    const order = [
      stopGateway,
      () => stopPollers(pollers, endReceives),
      ...stops.toReversed(),
      stopDynamoDb,
    ];
    stopGateway = stopDynamoDb = undefined;
    stops.length = 0;
    for (const stop of order) await stop?.().catch(() => undefined);
  };
  // The emulators start before the queues their events go to: an event waits for its queue.
  // (Dropped, a verdict of a scan restarted at start was lost: its file waited for ever.)
  const emailEvents = Promise.withResolvers<(events: SesBusEvent[]) => Promise<void>>();
  const scanEvents = Promise.withResolvers<(event: unknown) => Promise<void>>();
  // Read before the stack writes its own environment: a GOOGLE_* given to the runner wins.
  const googleGiven = googleFromEnvironment();
  try {
    await mkdir(options.stateDir, { recursive: true });
    await assertPortFree(options.ports.gateway, 'local gateway', FLAGS.gateway);
    await assertPortFree(options.ports.scheduler, 'Scheduler emulator', FLAGS.scheduler);

    const [dynamodb, sqsS3, ses, turnstile, chat, google] = await Promise.all([
      startDynamoDbLocal({
        port: options.ports.dynamodb,
        stateDir: options.stateDir,
        // A stack serves a session; a test that starts stacks for seconds says so.
        longRunning: process.env.LOCAL_DYNAMODB_JIT !== 'quick',
        dataDir: options.inMemory ? undefined : join(options.stateDir, 'dynamodb'),
      }).then((handle) => {
        stopDynamoDb = handle.stop;
        return handle;
      }),
      startSqsS3({
        port: options.ports.sqsS3,
        dataDir: options.inMemory ? undefined : join(options.stateDir, 'sqs-s3'),
        // GuardDuty's stand-in (docs/uploads-and-pages.md#locally), unless scanning is off.
        scanner:
          process.env.MALWARE_SCANNING === 'off'
            ? undefined
            : {
                bucket: LOCAL_BUCKET,
                delayMs: scannerDelayMs(),
                // The queue exists only once the SQS emulator is up: the events wait for it.
                publish: async (event) => (await scanEvents.promise)(event),
              },
      }).then((handle) => {
        endReceives = handle.endReceives;
        return track(handle);
      }),
      startSes({
        port: options.ports.ses,
        inboxFile: options.inMemory ? undefined : join(options.stateDir, 'mail.jsonl'),
        // The queue exists only once the SQS emulator is up: the events wait for it.
        onEvents: async (events) => (await emailEvents.promise)(events),
      }).then(track),
      startTurnstile({ port: options.ports.turnstile }).then(track),
      loopbackCertificate().then(async (certificate) => {
        // Trusted before any worker runs: the webhook sender reaches the receivers over HTTPS.
        trustCertificate(certificate.cert);
        await writeFile(join(options.stateDir, CHAT_CERTIFICATE_FILE), certificate.cert);
        return track(
          await startChatReceivers({
            port: options.ports.chat,
            certificate,
            recordFile: options.inMemory ? undefined : join(options.stateDir, 'chat.jsonl'),
          }),
        );
      }),
      localGoogleKey(options.stateDir).then(async (key) => {
        const handle = track(
          await startGoogle({
            port: options.ports.google,
            accounts: [{ clientEmail: key.clientEmail, publicKey: key.privateKey }],
          }),
        );
        handle.createSpreadsheet({
          spreadsheetId: LOCAL_SPREADSHEET_ID,
          title: 'Local responses',
          sheets: ['Sheet1'],
          sharedWith: [DEV_SERVICE_ACCOUNT],
        });
        return { handle, keyFile: key.file };
      }),
    ]);

    const scheduler = await startScheduler({
      port: options.ports.scheduler,
      invoke: scheduledInvoker(workers),
    });
    stops.push(scheduler.stop);

    await ensureScheduleGroup(scheduler.endpoint);
    const { s3, sqs } = localClients({ sqsS3: sqsS3.endpoint });
    await ensureBucket(s3);
    const { queues, streamFailureUrl } = await ensureQueues(sqs);
    emailEvents.resolve(async (events) => {
      // As EventBridge's SQS target delivers them: the event as the message body.
      for (const event of events) {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: queues.emailEvents!.url,
            MessageBody: JSON.stringify(event),
          }),
        );
      }
    });

    // As the EventBridge rule's SQS target delivers GuardDuty's scan results.
    scanEvents.resolve(async (event) => {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queues.scanResults!.url,
          MessageBody: JSON.stringify(event),
        }),
      );
    });

    const gateway = await startGateway({ port: options.ports.gateway });
    stopGateway = () => gateway.close();

    const endpoints = {
      dynamodb: dynamodb.endpoint,
      sqsS3: sqsS3.endpoint,
      ses: ses.endpoint,
      scheduler: scheduler.endpoint,
    };
    Object.assign(
      process.env,
      localEnvironment(endpoints, {
        baseUrl: gateway.url,
        queueUrls: Object.fromEntries(Object.entries(queues).map(([name, q]) => [name, q.url])),
        deadLetterUrls: Object.fromEntries(
          Object.entries(queues).map(([name, q]) => [name, q.deadLetterUrl]),
        ),
        logLevel: options.logLevel,
        turnstileVerifyUrl: turnstile.verifyUrl,
        keyedHashSecret: await localKeyedHashSecret(options.stateDir, options.inMemory),
        google: googleGiven
          ? undefined
          : {
              keyFile: google.keyFile,
              tokenUrl: google.handle.tokenUrl,
              sheetsApiUrl: google.handle.sheetsApiUrl,
            },
      }),
      Object.fromEntries(
        workers.flatMap((w) =>
          w.trigger.kind === 'schedule'
            ? [[w.trigger.targetVariable, localFunctionArn(w.name)]]
            : [],
        ),
      ),
    );

    // Store modules read the environment above, so they load only now.
    const { ensureTable } = await import('#store/table-setup.ts');
    const streamArn = await ensureTable(LOCAL_TABLE);

    const streams = new DynamoDBStreamsClient({
      region: LOCAL_REGION,
      endpoint: dynamodb.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    // The caps of the SQS event sources as deployed with default settings (the SES rate from
    // this stack's environment): a local poller runs at most that many batches at once.
    const { config } = await import('#config');
    const capSettings: CapSettings = {
      sesSendRatePerSecond: config.sesSendRatePerSecond,
      webhookWorkerMaxConcurrency: WEBHOOK_WORKER_MAX_CONCURRENCY,
    };
    const streamWakes: (() => void)[] = [];
    wakeOnWrites((await import('#store/client.ts')).dynamodb, () => {
      for (const wake of streamWakes) wake();
    });
    // Exhaustive: a new trigger kind fails to compile here until the local runner feeds it.
    for (const worker of workers) {
      const { trigger } = worker;
      switch (trigger.kind) {
        case 'tableStream': {
          if (options.tableStream === false) break;
          const poller = startStreamPoller({
            client: streams,
            streamArn,
            // Woken by the stack's own writes (wakeOnWrites): a write of another process (a
            // test's seed, an admin command) is read within half a second.
            idleIntervalMs: 500,
            consumer: {
              name: worker.name,
              handler: await loadHandler(worker.handler),
              filters: trigger.filters,
              batchSize: trigger.batchSize,
              maxAttempts: trigger.maxAttempts,
              maxRecordAgeSeconds: trigger.maxRecordAgeSeconds,
              timeoutSeconds: worker.timeoutSeconds,
            },
            positions: options.inMemory
              ? undefined
              : streamPositionsIn(join(options.stateDir, 'stream-positions.json'), worker.name),
            // As the mapping's on-failure destination: where the batch was, not its records.
            onFailure: async (failed, _error, batch) => {
              const record = streamFailureRecord(
                failed,
                batch,
                localFunctionArn(worker.name),
                streamArn,
                new Date(),
              );
              await sqs.send(
                new SendMessageCommand({
                  QueueUrl: streamFailureUrl,
                  MessageBody: JSON.stringify(record),
                }),
              );
            },
          });
          pollerStops.push(poller.stop);
          streamWakes.push(poller.wake);
          break;
        }
        case 'queue':
        case 'dispatched': {
          const queue = queues[trigger.queue]!;
          const poller = startQueuePoller({
            client: sqs,
            queueUrl: queue.url,
            queueArn: queue.arn,
            consumer: {
              name: worker.name,
              handler: await loadHandler(worker.handler),
              batchSize: trigger.batchSize,
              timeoutSeconds: worker.timeoutSeconds,
            },
            // As Lambda runs concurrent invocations of a queue, up to the event source's cap.
            concurrency: concurrencyCap(trigger.maxConcurrency, capSettings),
            // As Lambda's pollers wait (20 s, SQS's longest): an idle stack's 25 receivers
            // asked once a second spent 3 % of a core; a stop ends the waits (stopPollers).
            waitSeconds: 20,
          });
          pollerStops.push(poller.stop);
          break;
        }
        case 'schedule':
          // Fired by the Scheduler emulator through scheduledInvoker(workers), started above.
          break;
        default: {
          const unfed: never = trigger;
          throw new Error(`no local feed for the trigger ${JSON.stringify(unfed)}`);
        }
      }
    }

    const accounts = await developmentAccounts(options);
    const info: LocalStackInfo = {
      baseUrl: gateway.url,
      apiKeys: { pro: accounts.pro.apiKey, free: accounts.free.apiKey },
      teams: { pro: accounts.pro.teamId, free: accounts.free.teamId },
      mailUrl: ses.inboxUrl,
      region: LOCAL_REGION,
      tableName: LOCAL_TABLE,
      uploadsBucket: LOCAL_BUCKET,
      scheduleGroup: LOCAL_SCHEDULE_GROUP,
      endpoints: {
        dynamodb: dynamodb.endpoint,
        sqs: sqsS3.endpoint,
        s3: sqsS3.endpoint,
        ses: ses.endpoint,
        scheduler: scheduler.endpoint,
        turnstile: turnstile.endpoint,
        google: google.handle.endpoint,
      },
      chat: {
        slackUrl: chat.slackUrl,
        discordUrl: chat.discordUrl,
        pageUrl: chat.pageUrl,
        messagesUrl: chat.messagesUrl,
        certificateFile: join(options.stateDir, CHAT_CERTIFICATE_FILE),
      },
      google: googleGiven
        ? null
        : {
            pageUrl: google.handle.pageUrl,
            serviceAccount: DEV_SERVICE_ACCOUNT,
            spreadsheetId: LOCAL_SPREADSHEET_ID,
          },
      queues: Object.fromEntries(
        Object.entries(queues).map(([name, q]) => [
          name,
          { url: q.url, deadLetterUrl: q.deadLetterUrl },
        ]),
      ),
      streamFailureQueueUrl: streamFailureUrl,
      inMemory: options.inMemory,
      pid: process.pid,
      readyMs: Math.round(performance.now() - startedAt),
    };
    await writeFile(join(options.stateDir, 'dev.json'), `${JSON.stringify(info, null, 2)}\n`);
    return { info, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * How long the scanner emulator takes before its verdict
 * (`LOCAL_SCANNER_DELAY_MS`, 300 ms unless set): GuardDuty takes seconds.
 */
function scannerDelayMs(): number {
  const set = process.env.LOCAL_SCANNER_DELAY_MS;
  const given = set ? Number(set) : Number.NaN;
  return Number.isInteger(given) && given >= 0 && given <= 3_600_000 ? given : 300;
}

interface DevAccount {
  teamId: string;
  apiKey: string;
}

/**
 * A Pro and a Free team with a key each. A persisted stack keeps the keys of
 * its last run (plaintext lives only in the git-ignored dev.json); an
 * in-memory stack, or one whose keys no longer resolve, gets new ones.
 */
/**
 * A stream consumer's positions in one JSON file shared by the consumers
 * (`{ consumer: { shardId: sequenceNumber } }`), written whole and renamed
 * into place, so a crash mid-write leaves the last good file.
 */
function streamPositionsIn(file: string, consumer: string): StreamPositions {
  const readAll = (): Record<string, Record<string, string>> => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return {};
    }
  };
  return {
    load: () => readAll()[consumer] ?? {},
    save: (positions) => {
      const all = { ...readAll(), [consumer]: positions };
      writeFileSync(`${file}.tmp`, JSON.stringify(all));
      renameSync(`${file}.tmp`, file);
    },
  };
}

async function developmentAccounts(
  options: LocalStackOptions,
): Promise<{ pro: DevAccount; free: DevAccount }> {
  const { createTeamWithKey } = await import('#lib/admin/accounts.ts');
  const { getApiKey } = await import('#store/api-keys.ts');
  const { keyIdOf } = await import('#domain/api-keys.ts');
  if (!options.inMemory) {
    const previous = await readPrevious(options.stateDir);
    if (previous) {
      const usable = async (account: DevAccount) => {
        const keyId = keyIdOf(account.apiKey);
        const record = keyId ? await getApiKey(keyId) : undefined;
        return record !== undefined && !record.revokedAt && record.teamId === account.teamId;
      };
      if ((await usable(previous.pro)) && (await usable(previous.free))) return previous;
    }
  }
  const make = async (plan: 'pro' | 'free') => {
    const created = await createTeamWithKey({
      name: `Development (${plan})`,
      ownerEmail: `${plan}@dev.local`,
      plan,
    });
    return { teamId: created.team.teamId, apiKey: created.apiKey };
  };
  return { pro: await make('pro'), free: await make('free') };
}

async function readPrevious(
  stateDir: string,
): Promise<{ pro: DevAccount; free: DevAccount } | undefined> {
  try {
    const info = JSON.parse(
      await readFile(join(stateDir, 'dev.json'), 'utf8'),
    ) as Partial<LocalStackInfo>;
    if (!info.apiKeys || !info.teams) return undefined;
    return {
      pro: { teamId: info.teams.pro, apiKey: info.apiKeys.pro },
      free: { teamId: info.teams.free, apiKey: info.apiKeys.free },
    };
  } catch {
    return undefined;
  }
}
