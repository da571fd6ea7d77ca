import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, storedItems } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/** `127.a.b.c` → `[a, b, c]`. */
const octets = (address: string) =>
  address.split('.').slice(1).map(Number) as [number, number, number];

describe('blockedIps CIDR ranges', () => {
  it('PATCH stores each range as network/prefix, a mapped range as IPv4 and a one-address range as the address', async () => {
    const form = await newForm('pro');
    const response = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: {
        blockedIps: [
          '198.51.100.77/24',
          '::FFFF:203.0.113.0/120',
          '2001:DB8:ABCD:12FF::1/56',
          '192.0.2.1/32',
          '2001:db8::1/128',
          '198.51.100.0/24',
        ],
      },
    });
    expect(response.status, response.text).toBe(200);
    const stored = [
      '198.51.100.0/24',
      '203.0.113.0/24',
      '2001:db8:abcd:1200::/56',
      '192.0.2.1',
      '2001:db8::1',
    ];
    expect(response.body.blockedIps).toEqual(stored);
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.blockedIps).toEqual(stored);
  });

  it('PATCH refuses a bad prefix with a 400 issue at its index and keeps the list', async () => {
    const form = await newForm('pro', { blockedIps: ['10.0.0.0/8'] });
    for (const bad of ['10.0.0.0/33', '2001:db8::/129', '1.2.3.4/']) {
      const response = await api('PATCH', `/v1/forms/${form.id}`, {
        key: form.apiKey,
        body: { blockedIps: ['192.0.2.1', bad] },
      });
      expect(response.status, bad).toBe(400);
      expect(response.body).toMatchObject({
        ok: false,
        error: 'invalid_request',
        issues: [
          {
            path: 'blockedIps.1',
            message: 'Must be an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24',
          },
        ],
      });
    }
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.blockedIps).toEqual(['10.0.0.0/8']);
  });

  it('drops a post from any address of a blocked range with 200 { ok: true } and stores nothing; an address outside posts', async () => {
    const visitor = freshVisitor();
    const [a, b, c] = octets(visitor);
    // Host bits set on purpose: the stored range is 127.a.b.0/24.
    const form = await newForm('free', { blockedIps: [`127.${a}.${b}.${c}/24`] });
    const neighbour = `127.${a}.${b}.${c === 254 ? 253 : 254}`;
    for (const from of [visitor, neighbour]) {
      const response = await submit(form.key, { json: { message: `from ${from}` }, from });
      expect(response.status, from).toBe(200);
      expect(response.body, from).toEqual({ ok: true });
    }
    expect(await storedItems(form.id)).toHaveLength(0);
    const outside = `127.${a}.${(b + 1) % 256}.${c}`;
    const allowed = await submit(form.key, { json: { message: 'outside' }, from: outside });
    expect(allowed.body?.submissionId).toEqual(expect.any(String));
    expect(await storedItems(form.id)).toHaveLength(1);
  });

  it('an IPv4-mapped range blocks the IPv4 visitors it maps: ::ffff:127.0.0.0/104 drops every loopback post', async () => {
    const form = await newForm('free', { blockedIps: ['::ffff:127.0.0.0/104'] });
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.blockedIps).toEqual(['127.0.0.0/8']);
    for (const from of [freshVisitor(), freshVisitor(), '127.0.0.1']) {
      const response = await submit(form.key, { json: { message: `from ${from}` }, from });
      expect(response.body, from).toEqual({ ok: true });
    }
    expect(await storedItems(form.id)).toHaveLength(0);
  });
});

/**
 * The local gateway listens on 127.0.0.1 and reports the TCP peer as
 * `sourceIp`, so over HTTP a test can only be many IPv4 visitors (IPv6
 * loopback would be the one address ::1). The pipeline is therefore run in
 * this process against the local table, given the caller address exactly
 * as the handler passes it on from `requestContext.identity.sourceIp`.
 */
describe('per-IP submit rate limit for IPv6 visitors', () => {
  it('two addresses of one /64 share the limit; an address of another /64 does not', async () => {
    await localStore();
    const { acceptSubmission } = await import('#http/submit/pipeline.ts');
    const { config } = await import('#config');
    const limit = config.submitRatePerIpPerMinute;
    const form = await newForm('pro');
    // One instant for every post, so all of them fall in one rate window.
    const now = new Date();
    let n = 0;
    const post = (ip: string) =>
      acceptSubmission(
        {
          key: form.key,
          contentType: 'application/json',
          body: Buffer.from(JSON.stringify({ message: `post ${++n} from ${ip}` })),
          ip,
          country: undefined,
          deviceClass: undefined,
          userAgent: 'ipv6-rate-limit-test',
          origin: undefined,
          referer: undefined,
        },
        now,
      );

    const sameSlash64 = ['2001:db8:7:1::1', '2001:db8:7:1:ffff:ffff:ffff:fffe'];
    for (let i = 0; i < limit; i++) {
      expect((await post(sameSlash64[i % 2]!)).kind).toBe('stored');
    }
    // A third address of the same /64 is over the limit too.
    await expect(post('2001:db8:7:1:abcd::9')).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
    });
    await expect(post(sameSlash64[0]!)).rejects.toMatchObject({ status: 429 });
    // The neighbouring /64 is another visitor.
    expect((await post('2001:db8:7:2::1')).kind).toBe('stored');
    expect(await storedItems(form.id)).toHaveLength(limit + 1);
  });
});
