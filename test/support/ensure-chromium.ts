// Run before `npm test`: the browser tests need a Chromium, which npm cannot
// install (Playwright's download does not work on these machines, see
// TOOLCHAIN.md). They run on Debian's `chromium-headless-shell` (lighter than
// the full browser: test/support/chromium.ts). When it is missing and we are
// root on a Debian-like system, apt installs it; otherwise a full Chromium
// found at the usual paths or at CHROMIUM_PATH does, and with none this says
// what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath, HEADLESS_SHELL } from './chromium.ts';

if (process.env.CHROMIUM_PATH || existsSync(HEADLESS_SHELL)) process.exit(0);

const isRoot = process.getuid?.() === 0;
let hasApt = false;
try {
  execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
  hasApt = true;
} catch {}

if (!isRoot || !hasApt) {
  if (chromiumPath()) process.exit(0);
  process.stderr.write(
    'The browser tests need Chromium: install the `chromium-headless-shell` package (or `chromium`), or set CHROMIUM_PATH to a Chromium or Chrome binary.\n',
  );
  process.exit(1);
}

process.stdout.write('Installing chromium-headless-shell with apt for the browser tests\n');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
try {
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], {
    stdio: 'inherit',
    env,
  });
} catch (error) {
  // No package source reachable: a full Chromium already here still runs the tests.
  const found = chromiumPath();
  if (found) {
    process.stderr.write(`apt could not install it (${String(error)}); using ${found}\n`);
    process.exit(0);
  }
  throw error;
}
if (!existsSync(HEADLESS_SHELL)) {
  process.stderr.write(
    `apt installed chromium-headless-shell but ${HEADLESS_SHELL} is not there\n`,
  );
  process.exit(1);
}
