import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocalStackInfo } from '../../lib/local/stack.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface DevProcess {
  child: ChildProcess;
  info: LocalStackInfo;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `bin/dev.ts` exactly as `npm run dev` does and waits for its READY line. */
export async function startDevProcess(args: string[], timeoutMs = 90_000): Promise<DevProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'dev.ts'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
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
  return {
    child,
    info,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
