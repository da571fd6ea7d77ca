import { spawn } from 'node:child_process';

/**
 * `npm test`: vitest, and beside it the checks (tsc, Biome, cfn-lint over
 * the templates), one after another, at the lowest priority, on what the
 * suite leaves of the machine. Run before vitest they kept both cores waiting on them for 34 s;
 * the suite itself uses about 1.5 of 2 cores. A check's output is held and
 * printed once it ends (at once when it fails, so a broken build shows
 * before the suite is over), then again, with each check's time, after the
 * suite's own. Arguments go to vitest. The exit status is vitest's, or the
 * first failed check's when vitest passed.
 */
const CHECKS: { name: string; args: string[] }[] = [
  { name: 'typecheck', args: ['run', 'typecheck'] },
  { name: 'lint', args: ['run', 'lint'] },
  { name: 'lint:cfn', args: ['run', 'lint:cfn', '--', '--if-installed', '--each-part-once'] },
];

interface Ran {
  status: number;
  output: string;
  seconds: number;
}

function run(command: string, args: string[], held: boolean): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    children.add(child);
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const done = (status: number) => {
      children.delete(child);
      resolve({ status, output, seconds: (performance.now() - started) / 1000 });
    };
    child.on('error', (error) => {
      output += `${String(error)}\n`;
      if (!held) process.stderr.write(`${command}: ${String(error)}\n`);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const children = new Set<ReturnType<typeof spawn>>();
// An interrupt ends the run once the children have ended: no further check starts. A terminal's
// Ctrl-C reaches the children itself; a SIGTERM sent to this process alone is passed on.
let interrupted: NodeJS.Signals | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = signal;
    if (signal === 'SIGTERM') for (const child of children) child.kill(signal);
  });
}

// At the lowest priority (`nice`, where there is one): they take what the suite leaves idle and
// never slow it (beside it at the default priority, the first CPU-bound files took 40 % longer).
const niced = process.platform !== 'win32';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const checks = (async () => {
  const results: (Ran & { name: string })[] = [];
  for (const check of CHECKS) {
    if (interrupted) break;
    const [command, args] = niced ? ['nice', ['-n', '19', npm, ...check.args]] : [npm, check.args];
    const result = { name: check.name, ...(await run(command, args, true)) };
    results.push(result);
    if (result.status !== 0) {
      process.stderr.write(`\n${check.name} failed (the suite goes on):\n${result.output}\n`);
    }
  }
  return results;
})();
const suite = await run('vitest', ['run', ...process.argv.slice(2)], false);
const results = await checks;
if (interrupted) process.exit(interrupted === 'SIGINT' ? 130 : 143);

console.log('\nChecks run beside the suite:');
for (const result of results) {
  const verdict = result.status === 0 ? 'passed' : `FAILED (exit ${result.status})`;
  console.log(`\n> npm run ${result.name}: ${verdict} in ${result.seconds.toFixed(1)} s`);
  if (result.output.trim()) console.log(result.output.trimEnd());
}
console.log(
  `\nChecks: ${results.map((r) => `${r.name} ${r.status === 0 ? 'passed' : 'FAILED'} (${r.seconds.toFixed(1)} s)`).join(', ')}; vitest ${suite.status === 0 ? 'passed' : 'FAILED'}.`,
);
const failed = results.find((result) => result.status !== 0);
process.exit(suite.status !== 0 ? suite.status : (failed?.status ?? 0));
