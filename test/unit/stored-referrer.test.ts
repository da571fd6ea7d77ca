import { describe, expect, it } from 'vitest';
import { storedReferrer } from '#domain/stored-referrer.ts';

describe('the stored referrer', () => {
  it('cuts the query and fragment of the hosted page, which hold its prefill', () => {
    expect(
      storedReferrer('https://forms.example.com/f/abc123?customer=c-42&source=x#top', 2048),
    ).toBe('https://forms.example.com/f/abc123');
    expect(
      storedReferrer('https://id.execute-api.eu-west-1.amazonaws.com/v1/f/abc123/?a=1', 2048),
    ).toBe('https://id.execute-api.eu-west-1.amazonaws.com/v1/f/abc123/');
  });

  it('keeps another page as sent, and bounds every one', () => {
    expect(storedReferrer('https://shop.example/contact?ref=ad', 2048)).toBe(
      'https://shop.example/contact?ref=ad',
    );
    expect(storedReferrer('https://shop.example/f/abc/more?x=1', 2048)).toBe(
      'https://shop.example/f/abc/more?x=1',
    );
    expect(storedReferrer('not a url', 2048)).toBe('not a url');
    expect(storedReferrer(`https://shop.example/?q=${'x'.repeat(3000)}`, 2048)).toHaveLength(2048);
    expect(storedReferrer('', 2048)).toBe('');
  });
});
