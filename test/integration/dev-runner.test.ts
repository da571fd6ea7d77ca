import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_QUEUE_PREFIX } from '#lib/local/environment.ts';
import { QUEUES } from '#queues';
import { type DevProcess, startDevProcess } from '#test/support/dev-process.ts';
import { eventually } from '#test/support/poll.ts';

/**
 * Pids of live processes whose command line mentions `needle` and `program` (the JVM names its
 * -dbPath, the runner its --state-dir).
 */
async function processesMentioning(needle: string, program = 'java'): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      if (cmdline.includes(needle) && cmdline.includes(program)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `check` (the tests' one poll) until it holds; whether it did. */
const until = (check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> =>
  eventually(check, (ok) => ok, { timeoutMs });

function portOf(url: string): number {
  return Number(new URL(url).port);
}

interface Answer {
  /** Set when the post was acknowledged: a 200 with a submission id. */
  submissionId?: string;
  /** The HTTP status, or the error code when there was no answer (ECONNREFUSED, ECONNRESET). */
  outcome: string;
}

/**
 * A JSON post to `POST /s/{key}` from its own loopback address (the submit path limits each
 * caller IP to 30 a minute). It sends the headers and half the body at once; `finish()` sends
 * the rest. `onAcknowledged` runs in the very tick a 200 is read, before any other callback.
 */
function post(
  baseUrl: string,
  key: string,
  from: string,
  onAcknowledged: (submissionId: string) => void,
): { answer: Promise<Answer>; finish(): void } {
  const body = Buffer.from(JSON.stringify({ message: `from ${from}` }));
  let settle: (answer: Answer) => void = () => {};
  const answer = new Promise<Answer>((resolve) => {
    settle = resolve;
  });
  const failed = (error: NodeJS.ErrnoException) => settle({ outcome: error.code ?? 'error' });
  const req = request(
    new URL(`/s/${key}`, baseUrl),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      localAddress: from,
      agent: false,
    },
    (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', failed);
      res.on('end', () => {
        const outcome = String(res.statusCode);
        if (res.statusCode !== 200) return settle({ outcome });
        const { submissionId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          submissionId: string;
        };
        onAcknowledged(submissionId);
        settle({ submissionId, outcome });
      });
    },
  );
  req.on('error', failed);
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return { answer, finish: () => req.end(body.subarray(half)) };
}

/** Runs `start` with these variables set (or removed) in the environment a child inherits. */
async function withEnv<T>(
  variables: Record<string, string | undefined>,
  start: () => Promise<T>,
): Promise<T> {
  const saved = { ...process.env };
  for (const [name, value] of Object.entries(variables)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    return await start();
  } finally {
    process.env = saved;
  }
}

/** The maxReceiveCount of the running stack's webhooks queue (its redrive policy). */
async function webhookMaxReceives(dev: DevProcess): Promise<number> {
  const sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: dev.info.endpoints.sqs,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { QueueUrl } = await sqs.send(
    new GetQueueUrlCommand({ QueueName: `${LOCAL_QUEUE_PREFIX}-webhooks` }),
  );
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['RedrivePolicy'] }),
  );
  return JSON.parse(Attributes!.RedrivePolicy!).maxReceiveCount;
}

function devArgs(dir: string): string[] {
  return ['--random-ports', '--state-dir', dir, '--log-level', 'warn'];
}

let stateDir: string;
beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'dev-runner-'));
});
afterAll(async () => {
  // Runners started in their own process group do not die with this one: end any left over.
  for (const pid of await processesMentioning(stateDir, 'bin/dev.ts')) process.kill(pid, 'SIGKILL');
  for (const pid of await processesMentioning(stateDir)) process.kill(pid, 'SIGKILL');
  await rm(stateDir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('refuses a busy port with a message naming it and the flag to change it', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const attempt = startDevProcess([
        '--in-memory',
        '--random-ports',
        '--port',
        String(port),
        '--state-dir',
        stateDir,
      ]);
      await expect(attempt).rejects.toThrow(`port ${port} (local gateway) is already in use`);
      await expect(attempt).rejects.toThrow('--port');
    } finally {
      blocker.close();
    }
  }, 60_000);

  // DynamoDB Local answers TransactWriteItems (the submit path) before its COMMIT has run, so a
  // stop that ends the JVM abruptly right after an acknowledgement can lose that submission; a
  // stop that lets the JVM go before the gateway has answered its requests fails them. Killing
  // the JVM with SIGKILL at the 30th acknowledgement fails this test on both counts.
  // One runner's life in one test (each start and stop of a stack costs seconds of the suite):
  // what it prints, two clean stops under load and what they keep, a queue setting changed
  // between two runs, and a killed runner.
  it('SIGTERM, then Ctrl-C, at the 30th acknowledgement: posts in flight are answered, every acknowledged post, form and key survives a restart, a stop leaves no listener and no JVM, a changed queue setting is applied, and a killed runner leaves no JVM', async () => {
    const dir = join(stateDir, 'durability');
    const start = (webhookRetryDelays?: string) =>
      withEnv({ WEBHOOK_RETRY_DELAYS_SECONDS: webhookRetryDelays }, () =>
        startDevProcess(devArgs(dir), { ownProcessGroup: true, shortLived: true }),
      );
    let dev = await start();
    const { apiKeys } = dev.info;
    const printed = dev.output();
    expect(printed).toContain(`Base URL      ${dev.info.baseUrl}`);
    expect(printed).toContain(apiKeys.pro);
    expect(printed).toContain(apiKeys.free);
    expect(printed).toContain(dev.info.mailUrl);
    // The local Slack and Discord receivers: the addresses to paste, and their page.
    expect(printed).toContain(`Slack hook    ${dev.info.chat.slackUrl}`);
    expect(printed).toContain(`Discord hook  ${dev.info.chat.discordUrl}`);
    expect(printed).toContain(`Chat page     ${dev.info.chat.pageUrl}`);
    expect(await processesMentioning(dir)).toHaveLength(1);
    const created = await fetch(`${dev.info.baseUrl}/v1/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKeys.pro}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Durability' }),
    });
    expect(created.status).toBe(201);
    const form = (await created.json()) as { id: string; key: string };

    const N = 30;
    const acknowledged: string[] = [];
    const timings: string[] = [];
    const rounds: { name: string; signal(dev: DevProcess): void }[] = [
      { name: 'SIGTERM to the runner', signal: (running) => running.child.kill('SIGTERM') },
      // A terminal's Ctrl-C signals the whole foreground group, the JVM too if it were there.
      { name: 'Ctrl-C', signal: (running) => void running.interrupt() },
    ];
    try {
      for (const [round, { name, signal }] of rounds.entries()) {
        const running = dev;
        const { baseUrl } = running.info;
        const before = acknowledged.length;
        let signalledAt = 0;
        let ackedThisRound = 0;
        const outcomes: Record<string, number> = {};
        const onAcknowledged = (id: string) => {
          acknowledged.push(id);
          ackedThisRound += 1;
          if (ackedThisRound === N) {
            signal(running);
            signalledAt = performance.now();
          }
        };
        // A request in flight when the signal lands: headers and half its body are sent now,
        // the rest only once the runner is stopping. A clean stop still serves it.
        const slow = post(baseUrl, form.key, `127.92.${round}.1`, (id) => acknowledged.push(id));
        // Six callers post in a loop; the 30th acknowledgement sends the signal in that same
        // tick, with the other callers' posts in flight. Every later 200 is acknowledged too.
        const caller = async (worker: number) => {
          for (let i = 1; signalledAt === 0; i++) {
            const from = `127.91.${10 * round + worker}.${i}`;
            const { answer, finish } = post(baseUrl, form.key, from, onAcknowledged);
            finish();
            const { outcome, submissionId } = await answer;
            outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
            if (submissionId === undefined) break;
          }
        };
        await Promise.all(Array.from({ length: 6 }, (_, worker) => caller(worker + 1)));
        expect(
          signalledAt,
          `${name}: ${JSON.stringify(outcomes)}\n${running.output()}`,
        ).toBeGreaterThan(0);
        await sleep(50);
        slow.finish();
        const slowAnswer = await slow.answer;
        const code = await running.exited;
        const shutdownMs = performance.now() - signalledAt;
        const { endpoints } = running.info;
        for (const url of [
          baseUrl,
          endpoints.dynamodb,
          endpoints.sqs,
          endpoints.ses,
          endpoints.scheduler,
          running.info.chat.pageUrl,
          endpoints.google,
        ]) {
          expect.soft(await listening(portOf(url)), `${name}: ${url} still listening`).toBe(false);
        }
        expect
          .soft(
            await until(async () => (await processesMentioning(dir)).length === 0, 5_000),
            `${name}: a JVM outlived the stop`,
          )
          .toBe(true);

        const restartedAt = performance.now();
        // A setting that shapes a kept queue changes for the second run: the runner must bring
        // the queue to it (CreateQueue with other attributes refuses a kept queue).
        dev = await start(round === 0 ? '1,2,3' : undefined);
        const restartMs = performance.now() - restartedAt;
        expect(dev.info.apiKeys).toEqual(apiKeys);
        if (round === 0)
          expect(await webhookMaxReceives(dev)).toBe(
            QUEUES.webhooks.maxReceiveCount({ webhookRetryDelaysSeconds: [1, 2, 3] }),
          );
        const missing: string[] = [];
        for (const id of acknowledged) {
          const found = await fetch(`${dev.info.baseUrl}/v1/forms/${form.id}/submissions/${id}`, {
            headers: { authorization: `Bearer ${apiKeys.pro}` },
          });
          if (found.status !== 200) missing.push(`${id} (${found.status})`);
        }
        const context = `${name}: ${acknowledged.length} acknowledged so far, this round's answers ${JSON.stringify(outcomes)}`;
        // Soft, so a failure in the first round still lets the second one report.
        expect.soft(missing, context).toEqual([]);
        // A post the runner took in must be answered, not failed: DynamoDB stops only after it.
        const failed = Object.keys(outcomes).filter((o) => o.startsWith('5') && o !== '503');
        expect.soft(failed, `${context}: server errors`).toEqual([]);
        expect.soft(slowAnswer.outcome, `${context}: the post in flight`).toBe('200');
        expect.soft(code, `${context}: exit code\n${running.output()}`).toBe(0);
        timings.push(
          `${name}: ${acknowledged.length - before} acknowledged (${JSON.stringify(outcomes)}, the post in flight ${slowAnswer.outcome}), signal to exit ${Math.round(shutdownMs)} ms, restart to ready ${Math.round(restartMs)} ms`,
        );
      }
      console.info(timings.join('\n'));
      const found = await fetch(`${dev.info.baseUrl}/v1/forms/${form.id}`, {
        headers: { authorization: `Bearer ${apiKeys.pro}` },
      });
      expect(found.status).toBe(200);
    } finally {
      // The runner itself killed (no chance to stop its children): its JVM must not outlive it.
      const [jvm] = await processesMentioning(dir);
      expect(jvm).toBeDefined();
      await dev.stop('SIGKILL');
      const gone = await until(
        async () => !(await processesMentioning(dir)).includes(jvm!),
        10_000,
      );
      expect(gone, `JVM ${jvm} outlived its killed parent`).toBe(true);
    }
  }, 150_000);
});
