import { describe, expect, it } from 'vitest';
import { submitFormScope, submitVisitorScope } from '#store/rate-limits.ts';

describe('submit rate limit scopes', () => {
  it('counts every post to a form in one scope', () => {
    expect(submitFormScope('frm_1')).toBe('SUBMIT#FORM#frm_1');
  });

  it('counts an IPv4 visitor by address, as before', () => {
    expect(submitVisitorScope('frm_1', '203.0.113.7')).toBe('SUBMIT#IP#frm_1#203.0.113.7');
    expect(submitVisitorScope('frm_1', '203.0.113.8')).not.toBe(
      submitVisitorScope('frm_1', '203.0.113.7'),
    );
  });

  it('counts two addresses of one IPv6 /64 together, and another /64 apart', () => {
    const first = submitVisitorScope('frm_1', '2001:db8:1:2::1');
    expect(first).toBe('SUBMIT#IP#frm_1#2001:db8:1:2::/64');
    expect(submitVisitorScope('frm_1', '2001:db8:1:2:9f3c:1:ab:77')).toBe(first);
    expect(submitVisitorScope('frm_1', '2001:db8:1:3::1')).not.toBe(first);
    expect(submitVisitorScope('frm_2', '2001:db8:1:2::1')).not.toBe(first);
  });
});
