// Run before `npm test`: the browser tests need a Chromium, which npm cannot
// install (Playwright's download does not work on these machines, see
// TOOLCHAIN.md). When none is found and we are root on a Debian-like system,
// apt installs the `chromium` package; otherwise it says what to do.
import { execFileSync } from 'node:child_process';
import { chromiumPath } from './chromium.ts';

if (chromiumPath()) process.exit(0);

const isRoot = process.getuid?.() === 0;
let hasApt = false;
try {
  execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
  hasApt = true;
} catch {}

if (!isRoot || !hasApt) {
  process.stderr.write(
    'The browser tests need Chromium: install the `chromium` package (apt install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary.\n',
  );
  process.exit(1);
}

process.stdout.write('Chromium is missing: installing it with apt for the browser tests\n');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
  stdio: 'inherit',
  env,
});
if (!chromiumPath()) {
  process.stderr.write('apt installed chromium but no binary was found at the usual paths\n');
  process.exit(1);
}
