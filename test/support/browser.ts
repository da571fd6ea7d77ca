import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { chromiumPath } from './chromium-path.ts';

/** Headless Chromium with the flags TOOLCHAIN.md found needed in a container. */
export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    throw new Error(
      'No Chromium found: `npm test` installs it with apt when run as root; otherwise install the `chromium` package or set CHROMIUM_PATH',
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/**
 * A website of its own origin (`http://localhost:<port>`, while the gateway is
 * on 127.0.0.1): serves the given pages as HTML, 404 otherwise.
 */
export async function siteServing(
  pages: Record<string, string>,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const page = pages[path];
    response.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html' });
    response.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
