import { describe, expect, it } from 'vitest';
import { wantsHtml } from '#http/negotiate.ts';

describe('wantsHtml', () => {
  it('is true for what browsers send on a form post', () => {
    // Chrome/Edge, Firefox, Safari.
    expect(
      wantsHtml(
        'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
      ),
    ).toBe(true);
    expect(wantsHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
  });

  it('is true for text/html anywhere in the list, in any case and spacing', () => {
    expect(wantsHtml('text/html')).toBe(true);
    expect(wantsHtml('TEXT/HTML')).toBe(true);
    expect(wantsHtml('application/json ,  text/html ; charset=utf-8')).toBe(true);
  });

  it('is false for scripts: missing, empty, any-type wildcard or JSON', () => {
    expect(wantsHtml(undefined)).toBe(false);
    expect(wantsHtml('')).toBe(false);
    expect(wantsHtml('*/*')).toBe(false);
    expect(wantsHtml('application/json')).toBe(false);
    expect(wantsHtml('application/json, text/plain, */*')).toBe(false);
  });

  it('does not count wildcards or look-alike types as text/html', () => {
    expect(wantsHtml('text/*')).toBe(false);
    expect(wantsHtml('application/xhtml+xml')).toBe(false);
    expect(wantsHtml('text/htmlx')).toBe(false);
    expect(wantsHtml('text/plain; note=text/html')).toBe(false);
  });

  it('honours q=0 as "not acceptable" and any positive weight as acceptable', () => {
    expect(wantsHtml('text/html;q=0')).toBe(false);
    expect(wantsHtml('text/html; q=0.000, application/json')).toBe(false);
    expect(wantsHtml('text/html;Q=0')).toBe(false);
    expect(wantsHtml('text/html;q=0.001')).toBe(true);
    expect(wantsHtml('text/html;q=1')).toBe(true);
    expect(wantsHtml('text/html;level=1;q=0.5')).toBe(true);
  });

  it('a listed text/html wins over a heavier JSON, as the spec says "includes"', () => {
    expect(wantsHtml('application/json, text/html;q=0.1')).toBe(true);
  });

  it('treats a malformed weight as the default', () => {
    expect(wantsHtml('text/html;q=abc')).toBe(true);
    expect(wantsHtml('text/html;q=')).toBe(true);
  });
});
