import { existsSync } from 'node:fs';

/** Where a Chromium may be: `CHROMIUM_PATH` first, then Debian's and others' usual paths. */
export function chromiumPath(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((path) => path !== undefined && existsSync(path));
}
