import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevProcess } from '../support/dev-process.ts';

/** Pids of live processes whose command line mentions `needle` (the JVM names its -dbPath). */
async function processesMentioning(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      if (cmdline.includes(needle) && cmdline.includes('java')) pids.push(Number(entry));
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

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

let stateDir: string;
beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'dev-runner-'));
});
afterAll(async () => {
  for (const pid of await processesMentioning(stateDir)) process.kill(pid, 'SIGKILL');
  await rm(stateDir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('keeps forms and keys across a restart, and a stop leaves no listener and no JVM', async () => {
    const first = await startDevProcess([
      '--random-ports',
      '--state-dir',
      stateDir,
      '--log-level',
      'warn',
    ]);
    const { baseUrl, apiKeys, endpoints } = first.info;
    expect(first.output()).toContain(`Base URL      ${baseUrl}`);
    expect(first.output()).toContain(apiKeys.pro);
    expect(first.output()).toContain(apiKeys.free);
    expect(first.output()).toContain(first.info.mailUrl);
    const created = await fetch(`${baseUrl}/v1/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKeys.pro}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Survives restarts' }),
    });
    expect(created.status).toBe(201);
    const form = (await created.json()) as { id: string };
    expect(await processesMentioning(stateDir)).toHaveLength(1);

    expect(await first.stop('SIGTERM')).toBe(0);
    for (const url of [
      baseUrl,
      endpoints.dynamodb,
      endpoints.sqs,
      endpoints.ses,
      endpoints.scheduler,
    ]) {
      expect(await listening(portOf(url)), `${url} still listening`).toBe(false);
    }
    expect(await until(async () => (await processesMentioning(stateDir)).length === 0, 5_000)).toBe(
      true,
    );

    const second = await startDevProcess([
      '--random-ports',
      '--state-dir',
      stateDir,
      '--log-level',
      'warn',
    ]);
    try {
      expect(second.info.apiKeys).toEqual(apiKeys);
      const found = await fetch(`${second.info.baseUrl}/v1/forms/${form.id}`, {
        headers: { authorization: `Bearer ${apiKeys.pro}` },
      });
      expect(found.status).toBe(200);
    } finally {
      expect(await second.stop('SIGINT')).toBe(0);
    }
  }, 120_000);

  it('leaves no JVM behind when the runner itself is killed', async () => {
    const dev = await startDevProcess([
      '--random-ports',
      '--state-dir',
      stateDir,
      '--log-level',
      'warn',
    ]);
    const [jvm] = await processesMentioning(stateDir);
    expect(jvm).toBeDefined();
    await dev.stop('SIGKILL');
    const gone = await until(
      async () => !(await processesMentioning(stateDir)).includes(jvm!),
      10_000,
    );
    expect(gone, `JVM ${jvm} outlived its killed parent`).toBe(true);
  }, 120_000);

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
});
