import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type LocalStack,
  type LocalStackInfo,
  RANDOM_PORTS,
  startLocalStack,
} from '#lib/local/stack.ts';
import { startDevProcess } from '#test/support/dev-process.ts';

export interface BenchForm {
  id: string;
  key: string;
  teamId: string;
}

export interface BenchStack {
  stack: LocalStack;
  /** Real HTTP to the local gateway with the Pro development key. */
  api(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown; ms: number }>;
  newForm(name: string): Promise<BenchForm>;
}

/**
 * A local stack in this process (so a bench can meter the handlers' DynamoDB
 * client and sample its own memory), torn down after `run`. Management rate
 * limits are lifted: a bench measures the path, not the limits.
 */
export async function withBenchStack(
  run: (bench: BenchStack) => Promise<void>,
  options: { tableStream?: boolean } = {},
): Promise<void> {
  process.env.MANAGEMENT_RATE_PER_MINUTE = '100000000';
  const stateDir = await mkdtemp(join(tmpdir(), 'form-service-bench-'));
  const stack = await startLocalStack({
    stateDir,
    inMemory: true,
    ports: RANDOM_PORTS,
    logLevel: 'error',
    tableStream: options.tableStream,
  });
  const { api, newForm } = benchClient(stack.info);
  try {
    await run({ stack, api, newForm });
  } finally {
    await stack.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
}

/**
 * A local stack in its own process: the real `bin/dev.ts`, as `npm run dev`
 * and the integration tests' global setup start it, with `env` added to this
 * process's environment (settings and variables such as NODE_EXTRA_CA_CERTS
 * that Node reads only at process start), in memory on free ports, stopped
 * after `run`. Management rate limits are lifted as for `withBenchStack`.
 */
export async function withBenchDevProcess(
  env: Record<string, string>,
  run: (bench: BenchStack) => Promise<void>,
): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'form-service-bench-'));
  Object.assign(process.env, { MANAGEMENT_RATE_PER_MINUTE: '100000000' }, env);
  try {
    const dev = await startDevProcess([
      '--in-memory',
      '--random-ports',
      '--state-dir',
      stateDir,
      '--log-level',
      'error',
    ]);
    // A bench that gives up (process.exit) still stops the stack's process.
    const stopOnExit = () => dev.child.kill('SIGTERM');
    process.once('exit', stopOnExit);
    const stack: LocalStack = {
      info: dev.info,
      stop: async () => {
        process.off('exit', stopOnExit);
        const code = await dev.stop();
        if (code !== 0) throw new Error(`dev stack exited with ${code}:\n${dev.output()}`);
      },
    };
    try {
      await run({ stack, ...benchClient(dev.info) });
    } finally {
      await stack.stop();
    }
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

/** Real HTTP to a local stack's gateway with its Pro development key. */
function benchClient(info: LocalStackInfo): Pick<BenchStack, 'api' | 'newForm'> {
  const { baseUrl, apiKeys, teams } = info;
  const api: BenchStack['api'] = async (method, path, body) => {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKeys.pro}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : undefined,
      ms: performance.now() - started,
    };
  };
  const newForm = async (name: string) => {
    const created = await api('POST', '/v1/forms', { name, type: 'contact' });
    if (created.status !== 201) throw new Error(`form create answered ${created.status}`);
    const form = created.body as { id: string; key: string };
    // Notifications off: a bench that seeds 100,000 rows must not queue 100,000 emails.
    const quiet = await api('PATCH', `/v1/forms/${form.id}`, { notifyEnabled: false });
    if (quiet.status !== 200) throw new Error(`PATCH notifyEnabled answered ${quiet.status}`);
    return { id: form.id, key: form.key, teamId: teams.pro };
  };
  return { api, newForm };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The session cookie's value for `email` (a team member), as the dashboard
 * gets one: the sign-in email's code read from the local inbox, verified.
 */
export async function sessionCookie(
  info: LocalStackInfo,
  api: BenchStack['api'],
  email: string,
): Promise<string> {
  await api('POST', '/v1/auth/sign-in', { email });
  let code: string | undefined;
  for (let tries = 0; tries < 100 && !code; tries++) {
    const store = (await (await fetch(new URL('/store', info.mailUrl))).json()) as {
      emails: { destination: { to: string[] }; body: { text?: string } }[];
    };
    const mail = store.emails.filter((e) => e.destination.to.includes(email)).at(-1);
    code = /code on the sign-in page: (\d{6})/.exec(mail?.body.text ?? '')?.[1];
    if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const verified = await fetch(`${info.baseUrl}/v1/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code }),
  });
  return verified.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!;
}
