import { type ChildProcess, execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * The command line of a live process, or undefined when none runs under that pid. A zombie
 * counts as gone: it holds no port and no memory, it only waits for its parent to reap it.
 */
export async function commandLineOf(pid: number): Promise<string | undefined> {
  if (process.platform === 'linux') return linuxCommandLine(pid);
  try {
    const { stdout } = await execFileAsync('ps', ['-o', 'stat=,command=', '-p', String(pid)]);
    const match = /^\s*(\S+)\s+(.*)$/.exec(stdout.trim());
    if (!match || match[1]!.startsWith('Z')) return undefined;
    return match[2];
  } catch {
    // ps exits non-zero when no process has that pid.
    return undefined;
  }
}

async function linuxCommandLine(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The state letter follows the command name in parentheses, which may itself hold spaces.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return undefined;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

export async function isRunning(pid: number): Promise<boolean> {
  return (await commandLineOf(pid)) !== undefined;
}

/** Polls until the process is gone; false if it still runs after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await isRunning(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/** SIGTERM, then SIGKILL after `graceMs`, for a process that is not our child. */
export async function terminatePid(pid: number, graceMs = 3_000): Promise<void> {
  signal(pid, 'SIGTERM');
  if (await waitUntilGone(pid, graceMs)) return;
  signal(pid, 'SIGKILL');
  if (!(await waitUntilGone(pid, 5_000))) {
    throw new Error(`process ${pid} still runs after SIGKILL`);
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * SIGTERM, then SIGKILL after `graceMs`, for our own child; resolves once it has exited, with
 * `killed` when it took the SIGKILL.
 */
export async function terminateChild(
  child: ChildProcess,
  graceMs = 3_000,
): Promise<'exited' | 'killed'> {
  if (hasExited(child)) return 'exited';
  const exited = once(child, 'exit').then(() => 'exited' as const);
  child.kill('SIGTERM');
  // Cancelled once the child exits, so a quick stop does not hold the event loop for graceMs.
  const grace = new AbortController();
  const timer = sleep(graceMs, 'timeout' as const, { signal: grace.signal }).catch(
    () => 'cancelled' as const,
  );
  const first = await Promise.race([exited, timer]);
  grace.abort();
  if (first === 'timeout' && !hasExited(child)) {
    child.kill('SIGKILL');
    await exited;
    return 'killed';
  }
  return 'exited';
}
