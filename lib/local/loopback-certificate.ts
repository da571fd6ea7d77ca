import { randomUUID } from 'node:crypto';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';

/**
 * The local Slack and Discord receivers' HTTPS certificate, and the local
 * stack's trust in it (docs/integrations.md#local-receivers).
 */

export interface LoopbackCertificate {
  cert: string;
  key: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost (its own CA), made at each start. */
export async function loopbackCertificate(): Promise<LoopbackCertificate> {
  // A subject of its own: two self-signed CAs of one name in a trust store (the local
  // receivers' and the tests' receivers') make OpenSSL pick either as the issuer, and
  // verification then fails one time in two.
  const subject = [
    { name: 'commonName', value: '127.0.0.1' },
    { name: 'organizationName', value: `form-service loopback ${randomUUID()}` },
  ];
  // Loaded here, not at import: the test files that import the receivers (and this) make
  // no certificate, and selfsigned costs each about 0.1 s.
  const { generate } = await import('selfsigned');
  const pems = await generate(subject, {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * Adds `cert` to the CAs this process's TLS clients trust by default, beside
 * the bundled ones and any of NODE_EXTRA_CA_CERTS: the webhook sender runs in
 * the local stack's process and verifies certificates as deployed, so it
 * reaches the local receivers without any change to lambdas/. Only the local
 * runner calls this; a deployed function trusts the bundled CAs alone.
 */
export function trustCertificate(cert: string): void {
  setDefaultCACertificates([...getCACertificates('default'), cert]);
}
