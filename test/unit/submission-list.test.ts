import { describe, expect, it } from 'vitest';
import { effectiveAsOf } from '#domain/bulk-target.ts';
import { addCounterDeltas, changedFlags, noDeltas } from '#domain/submission-folders.ts';
import { listQuery, pageHolding, pageWindow, previewOf } from '#domain/submission-list.ts';
import { attachmentDisposition } from '#domain/uploads.ts';
import { submissionSortKeyUpTo } from '#store/keys.ts';

describe('list paging', () => {
  it('clamps a page past the end to the last page, and an empty folder has one page', () => {
    expect(pageWindow(0, 15, 1)).toEqual({ page: 1, pageCount: 1, skip: 0 });
    expect(pageWindow(0, 15, 9)).toEqual({ page: 1, pageCount: 1, skip: 0 });
    expect(pageWindow(30, 15, 2)).toEqual({ page: 2, pageCount: 2, skip: 15 });
    expect(pageWindow(31, 15, 99)).toEqual({ page: 3, pageCount: 3, skip: 30 });
  });

  it('finds the page holding a 0-based position', () => {
    expect(pageHolding(0, 15)).toBe(1);
    expect(pageHolding(14, 15)).toBe(1);
    expect(pageHolding(15, 15)).toBe(2);
  });

  it('reads the query string with defaults and refuses what is out of bounds', () => {
    expect(listQuery.parse({})).toEqual({ filter: 'all', page: 1, pageSize: 15 });
    expect(listQuery.parse({ page: '3', pageSize: '100', filter: 'spam' })).toMatchObject({
      page: 3,
      pageSize: 100,
    });
    for (const bad of [{ pageSize: '101' }, { pageSize: '0' }, { page: '1e400' }, { page: '' }]) {
      expect(listQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('preview', () => {
  it('is the longest answer, whitespace folded, never the _invalid report', () => {
    expect(previewOf({ a: 'short', b: 'a bit\n\nlonger', _invalid: 'x'.repeat(500) })).toBe(
      'a bit longer',
    );
    expect(previewOf({})).toBe('');
  });

  it('cuts at 140 characters counting code points, the last one an ellipsis', () => {
    const preview = previewOf({ message: '😀'.repeat(200) });
    expect([...preview]).toHaveLength(140);
    expect(preview.endsWith('😀…')).toBe(true);
    expect(previewOf({ message: 'x'.repeat(140) })).toBe('x'.repeat(140));
  });
});

describe('flag changes and counters', () => {
  const inbox = { read: false, starred: false, isSpam: false, isTest: false };

  it('a change to what the submission already holds is no change', () => {
    expect(changedFlags(inbox, { read: false })).toBeUndefined();
    expect(changedFlags(inbox, { read: true })).toEqual({
      read: true,
      starred: false,
      isSpam: false,
    });
  });

  it('moving to spam leaves every inbox folder and submissionCount; a test counts in no submissionCount', () => {
    const toSpam = addCounterDeltas(
      noDeltas(),
      { ...inbox, starred: true },
      {
        read: false,
        starred: true,
        isSpam: true,
      },
    );
    expect(toSpam).toEqual({
      folders: { all: -1, unread: -1, starred: -1, spam: 1, pending: 0 },
      submissionCount: -1,
    });
    const testBack = addCounterDeltas(
      noDeltas(),
      { ...inbox, isSpam: true, isTest: true },
      {
        read: true,
        starred: false,
        isSpam: false,
      },
    );
    expect(testBack).toEqual({
      folders: { all: 1, unread: 0, starred: 0, spam: -1, pending: 0 },
      submissionCount: 0,
    });
    const deleted = addCounterDeltas(noDeltas(), inbox, undefined);
    expect(deleted).toEqual({
      folders: { all: -1, unread: -1, starred: 0, spam: 0, pending: 0 },
      submissionCount: -1,
    });
  });
});

describe('asOf', () => {
  it('never reaches past now', () => {
    const now = new Date('2026-05-01T00:00:00.000Z');
    expect(effectiveAsOf('2030-01-01T00:00:00Z', now)).toBe(now.toISOString());
    expect(effectiveAsOf('2026-04-30T23:00:00+02:00', now)).toBe('2026-04-30T21:00:00.000Z');
  });

  it('bounds the sort keys of UUID v7 ids drawn up to a minute after the moment', () => {
    const at = '2026-05-01T00:00:00.000Z';
    const bound = submissionSortKeyUpTo(at);
    const idAt = (ms: number) => {
      const hex = ms.toString(16).padStart(12, '0');
      return `SUB#${hex.slice(0, 8)}-${hex.slice(8)}-7abc-8def-0123456789ab`;
    };
    expect(idAt(Date.parse(at)) < bound).toBe(true);
    expect(idAt(Date.parse(at) + 60_000) < bound).toBe(true);
    expect(idAt(Date.parse(at) + 60_001) > bound).toBe(true);
  });
});

describe('attachment disposition', () => {
  it('gives an ASCII fallback and the exact name in filename*', () => {
    expect(attachmentDisposition('Müller "cv";.pdf')).toBe(
      `attachment; filename="M_ller _cv_;.pdf"; filename*=UTF-8''M%C3%BCller%20%22cv%22%3B.pdf`,
    );
    expect(attachmentDisposition("it's (1).txt")).toBe(
      `attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`,
    );
  });
});
