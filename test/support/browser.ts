import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { startChromium } from './chromium.ts';

export { startChromiumServer } from './chromium.ts';

/**
 * How long a browser test's page waits for an element, a click's target or a navigation
 * (playwright's default timeout, set on every page the tests open). A bound for a page under
 * the suite's load (two test files, the stack and Chromium on two cores), not a claim about
 * the product's speed: a wait ends as soon as what it waits for is there.
 */
export const PAGE_WAIT_MS = 20_000;

/**
 * The run's one Chromium (started by the integration global setup), or a
 * Chromium of this file's own when none runs. Closing a shared one only
 * disconnects this file.
 */
export async function launchChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return startChromium();
}

/** One Chromium for a test file: launched before its tests, closed after; the getter gives it. */
export function chromiumForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
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

export interface Visit {
  page: Page;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Every response of status 400 or more, as `status url`. */
  failed: string[];
  close: () => Promise<void>;
}

/** A fresh context at `url`, recording every request, console error and uncaught exception. */
export async function visit(
  browser: Browser,
  url: string,
  options: BrowserContextOptions = {},
): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 }, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(url);
  return { page, requests, errors, failed, close: () => context.close() };
}

/** The URLs that left this machine (any host but 127.0.0.1 and localhost). */
export function offMachine(urls: string[]): string[] {
  return urls.filter((url) => {
    const { protocol, hostname } = new URL(url);
    return (
      (protocol === 'http:' || protocol === 'https:') &&
      hostname !== '127.0.0.1' &&
      hostname !== 'localhost'
    );
  });
}

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe-core's serious and critical findings on the page as it is now (open shadow roots included). */
export async function axeFindings(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol, which the page's CSP does not govern.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (o: object) => Promise<unknown> } }).axe;
    const result = (await axe.run({ resultTypes: ['violations'] })) as {
      violations: { id: string; impact: string; nodes: { target: unknown }[] }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}
