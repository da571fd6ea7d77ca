import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalStack, startLocalStack } from '../../lib/local/stack.ts';

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
export async function withBenchStack(run: (bench: BenchStack) => Promise<void>): Promise<void> {
  process.env.MANAGEMENT_RATE_PER_MINUTE = '100000000';
  const stateDir = await mkdtemp(join(tmpdir(), 'form-service-bench-'));
  const stack = await startLocalStack({
    stateDir,
    inMemory: true,
    ports: { gateway: 0, dynamodb: 0, sqsS3: 0, ses: 0, scheduler: 0, turnstile: 0 },
    logLevel: 'error',
  });
  const { baseUrl, apiKeys, teams } = stack.info;
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
    return { id: form.id, key: form.key, teamId: teams.pro };
  };
  try {
    await run({ stack, api, newForm });
  } finally {
    await stack.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
