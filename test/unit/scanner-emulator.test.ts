import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readScanMessage } from '#domain/scan-events.ts';
import { uploadKey } from '#domain/uploads.ts';
import { scanResultEvent } from '#lib/local/emulators/malware-scanner.ts';
import {
  EICAR,
  EICAR_THREAT,
  scannerVerdict,
  zipEntries,
} from '#lib/local/emulators/scanner-verdicts.ts';

/** A zip of one entry, stored (method 0) or deflated (8). */
function zipOf(name: string, content: Buffer, method: 0 | 8 = 8): Buffer {
  const data = method === 8 ? deflateRawSync(content) : content;
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(method, 8);
  local.writeUInt32LE(crc32(content), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(method, 10);
  central.writeUInt32LE(crc32(content), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + data.length, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

describe('the scanner emulator’s verdicts', () => {
  it('the EICAR string anywhere in a file is a threat, with GuardDuty’s name for it', () => {
    expect(EICAR).toHaveLength(68);
    expect(scannerVerdict(Buffer.from(`header\n${EICAR}\ntrailer`), 'a.txt')).toEqual({
      status: 'THREATS_FOUND',
      threats: [EICAR_THREAT],
    });
  });

  it.each([0, 8] as const)('a zip holding it (method %i) is a threat', (method) => {
    const zip = zipOf('eicar.com', Buffer.from(EICAR), method);
    expect(zip.includes(EICAR) === (method === 0)).toBe(true);
    expect(scannerVerdict(zip, 'files.zip').status).toBe('THREATS_FOUND');
  });

  it('a *.locked.zip cannot be scanned, whatever it holds; anything else is clean', () => {
    expect(scannerVerdict(zipOf('eicar.com', Buffer.from(EICAR)), 'Secret.LOCKED.zip')).toEqual({
      status: 'UNSUPPORTED',
      threats: [],
    });
    expect(scannerVerdict(Buffer.from('%PDF-1.7'), 'cv.pdf')).toEqual({
      status: 'NO_THREATS_FOUND',
      threats: [],
    });
    expect(scannerVerdict(zipOf('a.txt', Buffer.from('hello')), 'a.zip').status).toBe(
      'NO_THREATS_FOUND',
    );
  });

  it('a zip that inflates past 1 MB an entry, or a broken one, is not looked into', () => {
    const bomb = zipOf(
      'big.txt',
      Buffer.concat([Buffer.alloc(2 * 1024 * 1024), Buffer.from(EICAR)]),
    );
    expect(zipEntries(bomb)).toEqual([]);
    expect(zipEntries(Buffer.from('PK\x05\x06 truncated'))).toEqual([]);
    expect(zipEntries(Buffer.alloc(0))).toEqual([]);
  });
});

describe('the emulator’s event is AWS’s sample about this object, and the worker reads it so', () => {
  const form = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
  const submission = '0192f3a4-5b6c-7d8e-9f01-000000000001';
  const key = uploadKey(form, submission, 1);

  it.each([
    ['NO_THREATS_FOUND', 'clean', []],
    ['THREATS_FOUND', 'infected', [EICAR_THREAT]],
    ['UNSUPPORTED', 'unsupported', []],
  ] as const)('%s is read as %s', (status, verdict, threats) => {
    const event = scanResultEvent('uploads', key, '"0cc175b9c0f1b6a831c399e269772661"', status, [
      ...threats,
    ]) as Record<string, unknown>;
    expect(event['detail-type']).toBe('GuardDuty Malware Protection Object Scan Result');
    expect(event.source).toBe('aws.guardduty');
    expect(readScanMessage(JSON.stringify(event), 'uploads')).toEqual({
      kind: 'result',
      formId: form,
      submissionId: submission,
      index: 1,
      etag: '0cc175b9c0f1b6a831c399e269772661',
      verdict,
      threats,
      at: expect.any(String),
    });
  });
});
