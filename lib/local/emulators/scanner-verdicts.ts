import { inflateRawSync } from 'node:zlib';

/**
 * What the local scanner emulator says of a file (docs/uploads-and-pages.md#locally):
 * the EICAR test string, alone or in a zip, is a threat; a file named
 * `*.locked.zip` cannot be scanned (as a password-protected archive cannot);
 * anything else is clean. GuardDuty's own statuses and threat name, so the
 * worker reads the emulator's events as it reads AWS's.
 */
export type ScannerStatus = 'NO_THREATS_FOUND' | 'THREATS_FOUND' | 'UNSUPPORTED';

/** The standard harmless test file every scanner reports (eicar.org), 68 bytes. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
/** The name GuardDuty gives it (AWS's sample event). */
export const EICAR_THREAT = 'EICAR-Test-File (not a virus)';

export function scannerVerdict(
  body: Buffer,
  fileName: string,
): { status: ScannerStatus; threats: string[] } {
  if (/\.locked\.zip$/i.test(fileName)) return { status: 'UNSUPPORTED', threats: [] };
  const infected = hasEicar(body) || zipEntries(body).some(hasEicar);
  return infected
    ? { status: 'THREATS_FOUND', threats: [EICAR_THREAT] }
    : { status: 'NO_THREATS_FOUND', threats: [] };
}

const hasEicar = (body: Buffer) => body.includes(EICAR, 0, 'latin1');

/** At most this many entries, each at most 1 MB inflated: a zip bomb stays a small cost. */
const MAX_ENTRIES = 100;
const MAX_ENTRY_BYTES = 1024 * 1024;

/**
 * The entries of a zip archive (stored or deflated), read from its central
 * directory; none when `body` is not a zip. One level deep, as the test files
 * need; what cannot be read is skipped.
 */
export function zipEntries(body: Buffer): Buffer[] {
  const end = body.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > body.length) return [];
  const count = Math.min(body.readUInt16LE(end + 10), MAX_ENTRIES);
  let at = body.readUInt32LE(end + 16);
  const entries: Buffer[] = [];
  for (let i = 0; i < count && at + 46 <= body.length; i++) {
    if (body.readUInt32LE(at) !== 0x02014b50) break;
    const method = body.readUInt16LE(at + 10);
    const size = body.readUInt32LE(at + 20);
    const nameLength = body.readUInt16LE(at + 28);
    const extraLength = body.readUInt16LE(at + 30);
    const commentLength = body.readUInt16LE(at + 32);
    const local = body.readUInt32LE(at + 42);
    at += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > body.length || body.readUInt32LE(local) !== 0x04034b50) continue;
    const start = local + 30 + body.readUInt16LE(local + 26) + body.readUInt16LE(local + 28);
    const data = body.subarray(start, start + size);
    try {
      if (method === 0) entries.push(data);
      else if (method === 8)
        entries.push(inflateRawSync(data, { maxOutputLength: MAX_ENTRY_BYTES }));
    } catch {
      // Not inflatable within bounds: not looked into.
    }
  }
  return entries;
}
