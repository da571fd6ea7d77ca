import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * The one way tests, benches and the docs screenshots find and start Chromium
 * (no vitest import, so plain scripts use it too). `npm test`'s pretest
 * (`ensure-chromium.ts`) installs one when none is found; test files connect
 * to the run's shared server through `#test/support/browser.ts`.
 */

/**
 * Where a Chromium may be: `CHROMIUM_PATH` first, then Debian's headless shell (the build
 * Playwright itself runs headless tests on: three dashboard files took 38 s of Chromium CPU
 * on it against 53 s on the full browser, whose browser process did twice the work), then
 * the full browsers at their usual paths.
 */
export function chromiumPath(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    HEADLESS_SHELL,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((path) => path !== undefined && existsSync(path));
}

/** Debian's `chromium-headless-shell` package: what `npm test` and `.ci/run` install. */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Headless Chromium's flags that TOOLCHAIN.md found needed in a container. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

const NOT_FOUND =
  'No Chromium found: `npm test` installs it with apt when run as root; otherwise install the `chromium-headless-shell` (or `chromium`) package or set CHROMIUM_PATH';

/** A headless Chromium of the caller's own; throws saying what to install when there is none. */
export function startChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(NOT_FOUND);
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/** A browser server every test file can connect to (one for the whole run); none without a Chromium. */
export async function startChromiumServer() {
  const executablePath = chromiumPath();
  if (!executablePath) return undefined;
  return chromium.launchServer({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
