/**
 * `npm run bench:delivery [-- --posts N --concurrency C --wait-seconds S]`:
 * the delivery pipeline on its own local stack. N posts (default 200) to a
 * Pro form with a webhook to a local HTTPS receiver and owner notifications
 * on; prints stored → webhook received and stored → email in the inbox
 * (p50/p99), deliveries per submission and the submissions lost. A second
 * phase posts N more to a form whose receiver answers 500 to the first
 * attempt of every other submission, then 204: all must arrive, with one
 * `webhook-id` each, and the retried half shows the retry's extra latency.
 * Posts go one at a time by default, about as fast as the pipeline drains on
 * DynamoDB Local, so the latencies are the pipeline's own; `--concurrency 4`
 * posts faster than the stream fan-out drains (one shard, one record at a
 * time), and the latencies then measure the backlog, growing with N.
 *
 * The stack runs in its own process (`bin/dev.ts`, started like the
 * integration tests' global setup) because it must trust the receiver's
 * self-signed certificate through NODE_EXTRA_CA_CERTS, which Node reads only
 * at process start, and with a compressed retry schedule
 * (WEBHOOK_RETRY_DELAYS_SECONDS=1,2,3 instead of 5 s … 1 h).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Certificate, localCertificate } from '#test/support/webhook-receiver.ts';
import { type BenchForm, type BenchStack, withBenchDevProcess } from './bench-stack.ts';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '1' },
    'wait-seconds': { type: 'string', default: '60' },
  },
});
const POSTS = Number(values.posts);
const CONCURRENCY = Number(values.concurrency);
const WAIT_MS = Number(values['wait-seconds']) * 1000;
for (const [name, value] of [
  ['--posts', POSTS],
  ['--concurrency', CONCURRENCY],
  ['--wait-seconds', WAIT_MS],
] as const) {
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`${name} must be a whole number >= 1\n`);
    process.exit(2);
  }
}
const RETRY_DELAYS = '1,2,3';
/** How often the SES emulator's store is read: the resolution of the email latencies. */
const MAIL_POLL_MS = 100;
/** After everything arrived: how long to keep listening for duplicates. */
const SETTLE_MS = 5_000;
/** The whole bench, stack start and stop included, ends by itself past this. */
const WATCHDOG_MS = 60_000 + 2 * (POSTS * 1_000 + WAIT_MS + SETTLE_MS + 30_000);

const watchdog = setTimeout(() => {
  process.stderr.write(`bench:delivery did not finish in ${WATCHDOG_MS} ms; giving up\n`);
  // withBenchDevProcess's exit hook stops the stack's process.
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

// --- a receiver that answers per webhook-id ---------------------------------------------------

interface Attempt {
  at: number;
  status: number;
}
interface Receiver {
  url: string;
  /** Attempts per webhook-id, in arrival order. */
  byId: Map<string, Attempt[]>;
  requests: number;
  close(): Promise<void>;
}

/**
 * An HTTPS receiver on 127.0.0.1 (the certificate of test/support/webhook-receiver.ts) whose
 * answer depends on the webhook-id: `answer(ordinal, attempt)` gets the id's position among the
 * distinct ids seen (0 first) and its attempt number (1 first).
 */
async function startReceiver(
  certificate: Certificate,
  answer: (ordinal: number, attempt: number) => number,
): Promise<Receiver> {
  const byId = new Map<string, Attempt[]>();
  const ordinals = new Map<string, number>();
  let requests = 0;
  const server = createServer(certificate, (req, res) => {
    req.resume();
    req.on('end', () => {
      const at = Date.now();
      requests += 1;
      const id = String(req.headers['webhook-id'] ?? '');
      let attempts = byId.get(id);
      if (!attempts) {
        attempts = [];
        byId.set(id, attempts);
        ordinals.set(id, ordinals.size);
      }
      const status = answer(ordinals.get(id)!, attempts.length + 1);
      attempts.push({ at, status });
      res.writeHead(status).end();
    });
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver has no port');
  return {
    url: `https://127.0.0.1:${address.port}/hook`,
    byId,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- figures -------------------------------------------------------------------------------

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const p50p99 = (values: number[]) => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
});
const histogram = (keys: (number | string)[]) => {
  const out: Record<string, number> = {};
  for (const key of keys) out[key] = (out[key] ?? 0) + 1;
  return out;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- CPU of the stack's processes (Linux /proc) ----------------------------------------------

/** CPU seconds (user + system) a process has used, or undefined where /proc cannot say. */
async function cpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** The stack's Node process and its DynamoDB Local JVM (a child that runs DynamoDbLauncher). */
async function stackPids(devPid: number): Promise<{ node: number; jvm?: number }> {
  try {
    const children: number[] = [];
    for (const task of await readdir(`/proc/${devPid}/task`)) {
      const listed = await readFile(`/proc/${devPid}/task/${task}/children`, 'utf8');
      children.push(...listed.split(' ').filter(Boolean).map(Number));
    }
    for (const child of children) {
      const cmdline = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.includes('DynamoDbLauncher')) return { node: devPid, jvm: child };
    }
  } catch {
    // not Linux, or the process is gone: CPU figures are left out
  }
  return { node: devPid };
}

async function cpuNow(pids: { node: number; jvm?: number }) {
  return {
    node: await cpuSeconds(pids.node),
    jvm: pids.jvm === undefined ? undefined : await cpuSeconds(pids.jvm),
  };
}

// --- one phase -----------------------------------------------------------------------------

interface Post {
  n: number;
  submissionId: string;
  /** When the submit answer arrived (epoch ms). */
  storedAt: number;
}

interface SentEmail {
  destination: { to: string[] };
  subject: string;
  body?: { text?: string };
}

interface DeliveryView {
  submissionId: string;
  status: string;
  createdAt: string;
  attempts: { number: number; at: string; outcome: string; durationMs?: number }[];
}

interface PhaseOptions {
  name: string;
  receiver: Receiver;
  /** Owner notifications to this address, or none. */
  notifyEmail?: string;
}

async function runPhase(bench: BenchStack, options: PhaseOptions) {
  const { stack, api, newForm } = bench;
  const pids = await stackPids(stack.info.pid);
  const { baseUrl, mailUrl } = stack.info;
  const tag = `${options.name}${Date.now().toString(36)}`;
  const form: BenchForm = await newForm(`Delivery bench ${options.name}`);
  if (options.notifyEmail) {
    const patched = await api('PATCH', `/v1/forms/${form.id}`, {
      notifyEnabled: true,
      notifyEmail: options.notifyEmail,
    });
    if (patched.status !== 200) throw new Error(`PATCH notifyEmail answered ${patched.status}`);
  }
  const hooked = await api('PUT', `/v1/forms/${form.id}/webhook`, { url: options.receiver.url });
  if (hooked.status !== 201) throw new Error(`PUT webhook answered ${hooked.status}`);

  // The inbox is read from before the first post until every email is in (or the wait ends).
  const emailSeenAt = new Map<number, number>();
  const emailsPerPost = new Map<number, number>();
  const marker = new RegExp(`\\bdlv-${tag}-(\\d+)-end\\b`);
  let mailDeadline = Number.POSITIVE_INFINITY;
  let mailPolls = 0;
  const mailPoller = (async () => {
    if (!options.notifyEmail) return;
    let since = Math.floor(Date.now() / 1000) - 1;
    while (Date.now() < mailDeadline && emailSeenAt.size < POSTS) {
      const polledAt = Date.now();
      const response = await fetch(new URL(`/store?since=${since}`, mailUrl), {
        signal: AbortSignal.timeout(10_000),
      });
      const { emails } = (await response.json()) as { emails: SentEmail[] };
      mailPolls += 1;
      for (const email of emails) {
        if (!email.destination.to.includes(options.notifyEmail)) continue;
        const n = Number(marker.exec(`${email.subject}\n${email.body?.text ?? ''}`)?.[1] ?? NaN);
        if (Number.isNaN(n) || emailSeenAt.has(n)) continue;
        emailSeenAt.set(n, polledAt);
      }
      // Everything stored before this poll began has been seen: the next poll asks only for
      // mail from a second before it (the store's `at` is in whole seconds).
      since = Math.floor(polledAt / 1000) - 1;
      await sleep(MAIL_POLL_MS);
    }
  })().then(
    () => undefined,
    (error: unknown) => error,
  );
  const stopMail = async () => {
    mailDeadline = 0;
    await mailPoller;
  };

  // Posts, C at a time.
  const posts: Post[] = [];
  let next = 0;
  const postsStarted = Date.now();
  const cpuBefore = await cpuNow(pids);
  const postAll = Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < POSTS) {
        const n = next++;
        const response = await fetch(`${baseUrl}/s/${form.key}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            name: `Visitor ${n}`,
            email: `visitor${n}@example.com`,
            message: `Delivery bench post dlv-${tag}-${n}-end, long enough to look real.`,
          }),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        const storedAt = Date.now();
        if (response.status !== 200) throw new Error(`post ${n} answered ${response.status}`);
        const submissionId = (JSON.parse(text) as { submissionId?: string }).submissionId;
        if (!submissionId) throw new Error(`post ${n} answered without a submissionId: ${text}`);
        posts.push({ n, submissionId, storedAt });
      }
    }),
  );
  await postAll.catch(async (error: unknown) => {
    next = POSTS; // the other posters stop after their current post
    await stopMail();
    throw error;
  });
  const postsEnded = Date.now();
  const byWebhookId = new Map(posts.map((post) => [`msg_${post.submissionId}`, post]));

  // Bounded wait for every webhook (a 2xx) and every email, then a settle for duplicates.
  const deadline = postsEnded + WAIT_MS;
  mailDeadline = deadline;
  const delivered = () =>
    posts.filter((post) =>
      options.receiver.byId
        .get(`msg_${post.submissionId}`)
        ?.some((attempt) => attempt.status < 300),
    ).length;
  while (Date.now() < deadline && delivered() < POSTS) await sleep(50);
  const webhooksDoneAt = Date.now();
  const mailError = await mailPoller;
  if (mailError) throw mailError;
  const allInAt = Date.now();
  const cpuAfter = await cpuNow(pids);
  const load = loadavg()[0]!;
  if (delivered() === POSTS && (!options.notifyEmail || emailSeenAt.size === POSTS)) {
    await sleep(SETTLE_MS);
  }

  // A last look at the inbox for duplicates (emails per post).
  if (options.notifyEmail) {
    const response = await fetch(
      new URL(`/store?since=${Math.floor(postsStarted / 1000) - 1}`, mailUrl),
      { signal: AbortSignal.timeout(10_000) },
    );
    const { emails } = (await response.json()) as { emails: SentEmail[] };
    for (const email of emails) {
      if (!email.destination.to.includes(options.notifyEmail)) continue;
      const n = Number(marker.exec(`${email.subject}\n${email.body?.text ?? ''}`)?.[1] ?? NaN);
      if (!Number.isNaN(n)) emailsPerPost.set(n, (emailsPerPost.get(n) ?? 0) + 1);
    }
  }

  // The delivery log: when the fan-out queued each delivery and the worker began each attempt.
  const log = new Map<string, DeliveryView>();
  let after: string | undefined;
  for (let page = 0; page < Math.ceil((2 * POSTS) / 100) + 2; page++) {
    const query = `limit=100${after ? `&after=${after}` : ''}`;
    const listed = await api('GET', `/v1/forms/${form.id}/webhook/deliveries?${query}`);
    if (listed.status !== 200) throw new Error(`deliveries answered ${listed.status}`);
    const body = listed.body as { deliveries: DeliveryView[]; next?: string | null };
    for (const delivery of body.deliveries) log.set(delivery.submissionId, delivery);
    if (!body.next) break;
    after = body.next;
  }

  // Per submission.
  const toWebhook: number[] = [];
  const toEmail: number[] = [];
  const toFanout: number[] = [];
  const fanoutToWorker: number[] = [];
  const workerToReceived: number[] = [];
  const retriedLatency: number[] = [];
  const cleanLatency: number[] = [];
  const retryGaps: number[] = [];
  const requestsPerSubmission: number[] = [];
  const lost: { n: number; webhook: boolean; email: boolean }[] = [];
  for (const post of posts) {
    const attempts = options.receiver.byId.get(`msg_${post.submissionId}`) ?? [];
    requestsPerSubmission.push(attempts.length);
    const success = attempts.find((attempt) => attempt.status < 300);
    const mailAt = emailSeenAt.get(post.n);
    if (success) {
      const ms = success.at - post.storedAt;
      toWebhook.push(ms);
      (attempts.length > 1 ? retriedLatency : cleanLatency).push(ms);
      if (attempts.length > 1) retryGaps.push(attempts[1]!.at - attempts[0]!.at);
    }
    if (mailAt !== undefined) toEmail.push(mailAt - post.storedAt);
    const webhookLost = !success;
    const emailLost = options.notifyEmail !== undefined && mailAt === undefined;
    if (webhookLost || emailLost) lost.push({ n: post.n, webhook: webhookLost, email: emailLost });
    const delivery = log.get(post.submissionId);
    const first = delivery?.attempts.find((attempt) => attempt.number === 1);
    if (delivery && first && attempts[0]) {
      const queuedAt = Date.parse(delivery.createdAt);
      const startedAt = Date.parse(first.at);
      toFanout.push(queuedAt - post.storedAt);
      fanoutToWorker.push(startedAt - queuedAt);
      workerToReceived.push(attempts[0].at - startedAt);
    }
  }
  // Sustained rates: submissions through each stage per second, from the first post on.
  const rate = (times: number[]) =>
    times.length === 0
      ? null
      : Number(((times.length / Math.max(1, Math.max(...times) - postsStarted)) * 1000).toFixed(1));
  const firstSuccessAt = posts.flatMap(
    (post) =>
      options.receiver.byId
        .get(`msg_${post.submissionId}`)
        ?.filter((attempt) => attempt.status < 300)
        .slice(0, 1)
        .map((attempt) => attempt.at) ?? [],
  );
  const cpuUsed = (which: 'node' | 'jvm') => {
    const before = cpuBefore[which];
    const after = cpuAfter[which];
    return before === undefined || after === undefined ? null : Number((after - before).toFixed(1));
  };
  const strangers = [...options.receiver.byId.keys()].filter((id) => !byWebhookId.has(id));
  const logStatuses = histogram([...log.values()].map((d) => d.status));

  return {
    phase: options.name,
    posts: posts.length,
    webhooksDelivered: delivered(),
    emailsSeen: options.notifyEmail ? emailSeenAt.size : null,
    lost: lost.length,
    lostDetail: lost.slice(0, 10),
    storedToWebhookMs: p50p99(toWebhook),
    storedToEmailMs: options.notifyEmail ? p50p99(toEmail) : null,
    webhookRequests: options.receiver.requests,
    distinctWebhookIds: options.receiver.byId.size,
    webhookIdsNotOurs: strangers.length,
    deliveriesPerSubmission: histogram(requestsPerSubmission),
    emailsPerSubmission: options.notifyEmail ? histogram([...emailsPerPost.values()]) : null,
    deliveryLog: logStatuses,
    stagesMs: {
      storedToFanout: p50p99(toFanout),
      fanoutToWorkerAttempt: p50p99(fanoutToWorker),
      workerAttemptToReceived: p50p99(workerToReceived),
    },
    retried: {
      submissions: retriedLatency.length,
      storedToWebhookMs: p50p99(retriedLatency),
      firstToSecondAttemptMs: p50p99(retryGaps),
    },
    clean: { submissions: cleanLatency.length, storedToWebhookMs: p50p99(cleanLatency) },
    perSecond: {
      posts: rate(posts.map((post) => post.storedAt)),
      fanout: rate([...log.values()].map((delivery) => Date.parse(delivery.createdAt))),
      webhooks: rate(firstSuccessAt),
      emails: options.notifyEmail ? rate([...emailSeenAt.values()]) : null,
    },
    stackCpuSeconds: {
      wall: Number(((allInAt - postsStarted) / 1000).toFixed(1)),
      node: cpuUsed('node'),
      dynamodbLocal: cpuUsed('jvm'),
    },
    loadAverage1m: Number(load.toFixed(1)),
    drainMs: {
      lastPostToLastWebhook: webhooksDoneAt - postsEnded,
      lastPostToAllIn: allInAt - postsEnded,
    },
    mailPolls,
  };
}

// --- the bench -----------------------------------------------------------------------------

const certificate = await localCertificate();
const certDir = await mkdtemp(join(tmpdir(), 'form-service-bench-ca-'));
const caFile = join(certDir, 'webhook-receiver-ca.pem');
await writeFile(caFile, certificate.cert);
const receivers: Receiver[] = [];
try {
  const healthy = await startReceiver(certificate, () => 204);
  // The first attempt of every other submission (by first arrival) fails with 500.
  const faulty = await startReceiver(certificate, (ordinal, attempt) =>
    ordinal % 2 === 0 && attempt === 1 ? 500 : 204,
  );
  receivers.push(healthy, faulty);
  const started = Date.now();
  await withBenchDevProcess(
    {
      NODE_EXTRA_CA_CERTS: caFile,
      WEBHOOK_RETRY_DELAYS_SECONDS: RETRY_DELAYS,
      // The bench measures the path, not the limits.
      SUBMIT_RATE_PER_FORM_PER_MINUTE: '100000000',
      SUBMIT_RATE_PER_IP_PER_MINUTE: '100000000',
      PRO_MONTHLY_SUBMISSIONS: '100000000',
    },
    async (bench) => {
      const stackReadyMs = Date.now() - started;
      // Warm the submit path and the pipeline (module loads, first TLS handshake) off the record.
      const warm = await startReceiver(certificate, () => 204);
      receivers.push(warm);
      const warmForm = await bench.newForm('Warm-up');
      await bench.api('PUT', `/v1/forms/${warmForm.id}/webhook`, { url: warm.url });
      await fetch(`${bench.stack.info.baseUrl}/s/${warmForm.key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'warm-up' }),
        signal: AbortSignal.timeout(30_000),
      }).then((response) => response.arrayBuffer());
      for (let i = 0; i < 200 && warm.requests === 0; i++) await sleep(100);

      const owner = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const one = await runPhase(bench, { name: 'healthy', receiver: healthy, notifyEmail: owner });
      const two = await runPhase(bench, { name: 'faulty', receiver: faulty });
      printReport(one, two, stackReadyMs);
    },
  );
} finally {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await rm(certDir, { recursive: true, force: true });
  clearTimeout(watchdog);
}

type PhaseReport = Awaited<ReturnType<typeof runPhase>>;

function printReport(one: PhaseReport, two: PhaseReport, stackReadyMs: number) {
  const ms = (figures: { p50: number | null; p99: number | null } | null) =>
    figures ? `p50 ${figures.p50 ?? '-'} ms, p99 ${figures.p99 ?? '-'} ms` : '-';
  const per = (counts: Record<string, number> | null) =>
    counts
      ? Object.entries(counts)
          .map(([count, subs]) => `${subs} × ${count}`)
          .join(', ')
      : '-';
  const rates = (phase: PhaseReport) =>
    `posts ${phase.perSecond.posts}, fan-out ${phase.perSecond.fanout}, webhooks ${phase.perSecond.webhooks}` +
    (phase.perSecond.emails === null ? '' : `, emails ${phase.perSecond.emails}`);
  const perSubmission = (phase: PhaseReport) =>
    phase.stackCpuSeconds.node === null || phase.stackCpuSeconds.dynamodbLocal === null
      ? '-'
      : Math.round(
          ((phase.stackCpuSeconds.node + phase.stackCpuSeconds.dynamodbLocal) * 1000) / phase.posts,
        );
  const cpu = (phase: PhaseReport) =>
    `Node ${phase.stackCpuSeconds.node ?? '-'} s, DynamoDB Local ${phase.stackCpuSeconds.dynamodbLocal ?? '-'} s ` +
    `in ${phase.stackCpuSeconds.wall} s, ${perSubmission(phase)} ms a submission (machine load ${phase.loadAverage1m} on ${availableParallelism()} cores)`;
  const extra =
    two.retried.storedToWebhookMs.p50 !== null && two.clean.storedToWebhookMs.p50 !== null
      ? two.retried.storedToWebhookMs.p50 - two.clean.storedToWebhookMs.p50
      : null;
  const rows: [string, string][] = [
    [
      'stack',
      `own process (bin/dev.ts), ready in ${stackReadyMs} ms; retry delays ${RETRY_DELAYS} s (±20 %)`,
    ],
    [
      'posts',
      `${POSTS} a phase, ${CONCURRENCY} at a time (${one.perSecond.posts} and ${two.perSecond.posts} stored/s)`,
    ],
    ['healthy: stored → webhook received', ms(one.storedToWebhookMs)],
    [
      'healthy: stored → email in the inbox',
      `${ms(one.storedToEmailMs)} (inbox read every ${MAIL_POLL_MS} ms)`,
    ],
    ['healthy: webhook deliveries per submission', per(one.deliveriesPerSubmission)],
    ['healthy: emails per submission', per(one.emailsPerSubmission)],
    [`healthy: lost (no webhook or no email in ${WAIT_MS / 1000} s)`, String(one.lost)],
    ['healthy: stored → fan-out queued', ms(one.stagesMs.storedToFanout)],
    ['healthy: fan-out → worker attempt', ms(one.stagesMs.fanoutToWorkerAttempt)],
    ['healthy: worker attempt → received', ms(one.stagesMs.workerAttemptToReceived)],
    [
      'healthy: last post → last webhook / all in',
      `${one.drainMs.lastPostToLastWebhook} / ${one.drainMs.lastPostToAllIn} ms`,
    ],
    ['healthy: through each stage, per second', rates(one)],
    ['healthy: stack CPU', cpu(one)],
    ['faulty: delivered', `${two.webhooksDelivered} of ${two.posts}, lost ${two.lost}`],
    [
      'faulty: webhook-ids',
      `${two.distinctWebhookIds} distinct for ${two.posts} submissions, ${two.webhookIdsNotOurs} unknown`,
    ],
    ['faulty: deliveries per submission', per(two.deliveriesPerSubmission)],
    ['faulty: stored → webhook, first try', ms(two.clean.storedToWebhookMs)],
    ['faulty: stored → webhook, retried once', ms(two.retried.storedToWebhookMs)],
    ['faulty: first → second attempt', ms(two.retried.firstToSecondAttemptMs)],
    ['faulty: extra latency of a retry (p50)', extra === null ? '-' : `${extra} ms`],
    ['faulty: stored → fan-out queued', ms(two.stagesMs.storedToFanout)],
    ['faulty: fan-out → worker attempt', ms(two.stagesMs.fanoutToWorkerAttempt)],
    ['faulty: through each stage, per second', rates(two)],
    ['faulty: stack CPU', cpu(two)],
    ['faulty: delivery log', JSON.stringify(two.deliveryLog)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  const lines = rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  const report = {
    bench: 'delivery',
    posts: POSTS,
    concurrency: CONCURRENCY,
    retryDelaysSeconds: RETRY_DELAYS,
    waitSeconds: WAIT_MS / 1000,
    stackReadyMs,
    healthy: one,
    faulty: { ...two, extraLatencyOfRetryP50Ms: extra },
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
