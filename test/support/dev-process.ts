import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocalStackInfo } from '#lib/local/stack.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface DevProcess {
  child: ChildProcess;
  info: LocalStackInfo;
  output: () => string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /**
   * What Ctrl-C in a terminal does: SIGINT to the whole process group, the runner and every
   * child still in its group. Needs `ownProcessGroup`.
   */
  interrupt(): Promise<number | null>;
}

export interface DevProcessOptions {
  timeoutMs?: number;
  /** Start the runner as the leader of its own process group, as a shell does for a command. */
  ownProcessGroup?: boolean;
  /**
   * A stack that lives seconds: its DynamoDB Local compiles with C1 only
   * (`LOCAL_DYNAMODB_JIT=quick`). Full compilation, right for a session's stack, made the
   * tests that start stack after stack 60 % slower.
   */
  shortLived?: boolean;
}

/** Starts `bin/dev.ts` exactly as `npm run dev` does and waits for its READY line. */
export async function startDevProcess(
  args: string[],
  options: DevProcessOptions = {},
): Promise<DevProcess> {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'dev.ts'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_NO_WARNINGS: '1',
      ...(options.shortLived ? { LOCAL_DYNAMODB_JIT: 'quick' } : {}),
    },
    detached: options.ownProcessGroup ?? false,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const stateFile = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`dev stack not ready in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const check = () => {
      const ready = /^READY (.+)$/m.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(JSON.parse(ready[1]!).stateFile);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`dev stack exited with ${code} before ready:\n${output}`));
    });
  });
  const info = JSON.parse(await readFile(stateFile, 'utf8')) as LocalStackInfo;
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    info,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (running()) child.kill(signal);
      return exited;
    },
    interrupt: async () => {
      if (!options.ownProcessGroup) throw new Error('interrupt() needs ownProcessGroup');
      if (running()) process.kill(-child.pid!, 'SIGINT');
      return exited;
    },
  };
}
