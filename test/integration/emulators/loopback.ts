import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { expect } from 'vitest';

/**
 * Asserts that `port` is reachable on 127.0.0.1 and on nothing else, two ways: connecting to
 * the machine's network address must fail, and the kernel's socket table must show only
 * loopback listeners on that port. Each check runs where the machine allows it; at least one
 * must run.
 */
export async function expectLoopbackOnly(port: number): Promise<void> {
  expect(await canConnect('127.0.0.1', port)).toBe(true);
  let checks = 0;

  const external = nonLoopbackIPv4();
  if (external !== undefined) {
    expect(await canConnect(external, port), `connect to ${external}:${port}`).toBe(false);
    checks += 1;
  }

  if (existsSync('/proc/net/tcp')) {
    const listeners = listeningAddresses(port);
    expect(listeners.length).toBeGreaterThan(0);
    expect(listeners.filter((address) => !isLoopback(address))).toEqual([]);
    checks += 1;
  }

  expect(checks, 'no way to check the bind address on this machine').toBeGreaterThan(0);
}

function nonLoopbackIPv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((info) => info !== undefined && info.family === 'IPv4' && !info.internal)?.address;
}

export function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Local addresses of TCP sockets in LISTEN state on `port`, from /proc/net/tcp and tcp6. */
function listeningAddresses(port: number): string[] {
  const addresses: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (local === undefined || state !== '0A') continue;
      const [hexAddress, hexPort] = local.split(':');
      if (Number.parseInt(hexPort ?? '', 16) === port) addresses.push(decode(hexAddress!));
    }
  }
  return addresses;
}

/** The kernel prints each 32-bit word of the address in host (little-endian) byte order. */
function decode(hex: string): string {
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8) {
    for (let byte = 6; byte >= 0; byte -= 2) {
      bytes.push(Number.parseInt(hex.slice(word + byte, word + byte + 2), 16));
    }
  }
  if (bytes.length === 4) return bytes.join('.');
  const mapped =
    bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

function isLoopback(address: string): boolean {
  return (
    address.startsWith('127.') || address.startsWith('::ffff:127.') || address === '0:0:0:0:0:0:0:1'
  );
}
