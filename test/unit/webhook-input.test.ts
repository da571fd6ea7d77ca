import { describe, expect, it } from 'vitest';
import { webhookInput } from '#domain/webhooks.ts';

const accepts = (url: string, allowLoopback: boolean) =>
  webhookInput({ allowLoopback }).safeParse({ url }).success;

describe('the webhook URL a form may save', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://127.8.9.10:8443/hook',
    'https://[::1]/hook',
    'https://localhost/hook',
  ])('a deployed stack refuses the loopback target %s', (url) => {
    expect(accepts(url, false)).toBe(false);
  });

  it.each([
    'https://127.0.0.1:8443/hook',
    'https://localhost:8443/hook',
    'https://[::1]:8443/hook',
  ])('the local stack takes the loopback target %s', (url) => {
    expect(accepts(url, true)).toBe(true);
  });

  it.each([
    'https://10.0.0.5/hook',
    'https://169.254.169.254/latest',
    'https://[fd00::1]/hook',
    'https://printer.local/hook',
    'https://app.localhost/hook',
    'https://metadata.internal/x',
    'http://localhost/hook',
  ])('refuses %s even where loopback is allowed', (url) => {
    expect(accepts(url, true)).toBe(false);
    expect(accepts(url, false)).toBe(false);
  });

  it('takes a public https host either way', () => {
    expect(accepts('https://hooks.example.com/forms', false)).toBe(true);
    expect(accepts('https://hooks.example.com/forms', true)).toBe(true);
  });
});
