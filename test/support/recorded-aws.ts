import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * AWS's answers, recorded (test/fixtures/aws-answers/README.md), served on
 * 127.0.0.1 to the real SDK clients of `npm run admin -- deploy check`, which
 * find it through the SDK's own `AWS_ENDPOINT_URL_<SERVICE>` variables. Each
 * request is told apart as AWS tells it apart: REST path (Lambda, SES v2,
 * Route 53) or `X-Amz-Target` (ACM, SSM). Anything else answers 500 and is
 * kept in `unknown`, so a test can see a call it did not expect.
 */

const FIXTURES = new URL('../fixtures/aws-answers/', import.meta.url);

export const fixture = (path: string) => readFileSync(new URL(path, FIXTURES), 'utf8');

/** One recorded answer: a fixture file, its HTTP status and, for an error, AWS's error name. */
export interface Recorded {
  file: string;
  status?: number;
  error?: string;
}

export interface Scenario {
  lambdaAccountSettings: Recorded;
  sesAccount: Recorded;
  /** GetEmailIdentity by identity; any other: 404 NotFoundException. */
  identities?: Record<string, Recorded>;
  tenants?: Recorded;
  /** GetHostedZone by id; any other: 404 NoSuchHostedZone. */
  zones?: Record<string, Recorded>;
  /** DescribeCertificate by ARN; any other: 400 ResourceNotFoundException. */
  certificates?: Record<string, Recorded>;
  /** The public catalog parameters GetParameters answers from (`ssm/catalog.json`). */
  catalog?: string;
}

export interface Call {
  operation: string;
  /** The identity, zone, certificate or parameter names asked about. */
  subject: string;
  /** The Region the SDK signed for (Signature V4 credential scope). */
  signedRegion: string;
}

export interface RecordedAws {
  url: string;
  /** The variables that send every SDK client of a child process here. */
  env: Record<string, string>;
  calls: Call[];
  unknown: string[];
  close(): Promise<void>;
}

const SES_NOT_FOUND: Recorded = {
  file: 'sesv2/not-found.json',
  status: 404,
  error: 'NotFoundException',
};
const ZONE_NOT_FOUND: Recorded = { file: 'route53/no-such-hosted-zone.xml', status: 404 };

const body = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
  });

export async function startRecordedAws(scenario: Scenario): Promise<RecordedAws> {
  const calls: Call[] = [];
  const unknown: string[] = [];
  const server = createServer(async (request, response) => {
    const text = await body(request);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname).replace(/\/+$/, '');
    const target = String(request.headers['x-amz-target'] ?? '');
    const signedRegion =
      /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(String(request.headers.authorization))?.[1] ?? '';
    const record = (operation: string, subject = '') =>
      calls.push({ operation, subject, signedRegion });

    // restJson1 (Lambda, SES v2): the error's name in x-amzn-ErrorType.
    const restJson = (answer: Recorded) => {
      response.writeHead(answer.status ?? 200, {
        'content-type': 'application/json',
        ...(answer.error ? { 'x-amzn-errortype': answer.error } : {}),
      });
      response.end(fixture(answer.file));
    };
    // awsJson1_1 (ACM, SSM): the error's name in the body's __type.
    const awsJson = (status: number, payload: string) => {
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(payload);
    };

    if (request.method === 'GET' && path === '/2016-08-19/account-settings') {
      record('lambda:GetAccountSettings');
      return restJson(scenario.lambdaAccountSettings);
    }
    if (request.method === 'GET' && path === '/v2/email/account') {
      record('sesv2:GetAccount');
      return restJson(scenario.sesAccount);
    }
    const identity = /^\/v2\/email\/identities\/([^/]+)$/.exec(path)?.[1];
    if (request.method === 'GET' && identity) {
      record('sesv2:GetEmailIdentity', identity);
      return restJson(scenario.identities?.[identity] ?? SES_NOT_FOUND);
    }
    if (request.method === 'POST' && path === '/v2/email/tenants/list' && scenario.tenants) {
      record('sesv2:ListTenants');
      return restJson(scenario.tenants);
    }
    const zone = /^\/2013-04-01\/hostedzone\/([^/]+)$/.exec(path)?.[1];
    if (request.method === 'GET' && zone) {
      record('route53:GetHostedZone', zone);
      const answer = scenario.zones?.[zone] ?? ZONE_NOT_FOUND;
      response.writeHead(answer.status ?? 200, { 'content-type': 'text/xml' });
      return response.end(fixture(answer.file));
    }
    if (target === 'CertificateManager.DescribeCertificate') {
      const arn = String(JSON.parse(text).CertificateArn);
      record('acm:DescribeCertificate', arn);
      const answer = scenario.certificates?.[arn];
      if (!answer) {
        return awsJson(
          400,
          JSON.stringify({
            __type: 'ResourceNotFoundException',
            message: `Could not find certificate ${arn}.`,
          }),
        );
      }
      return awsJson(answer.status ?? 200, fixture(answer.file));
    }
    if (target === 'AmazonSSM.GetParameters' && scenario.catalog) {
      const names = JSON.parse(text).Names as string[];
      record('ssm:GetParameters', names.join(' '));
      // The catalog answers what exists and names the rest InvalidParameters, as SSM does.
      const known = JSON.parse(fixture(scenario.catalog)).Parameters as { Name: string }[];
      return awsJson(
        200,
        JSON.stringify({
          Parameters: known.filter((p) => names.includes(p.Name)),
          InvalidParameters: names.filter((name) => !known.some((p) => p.Name === name)),
        }),
      );
    }
    unknown.push(`${request.method} ${path} ${target}`.trim());
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: 'no recorded answer' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = Object.fromEntries(
    ['', '_LAMBDA', '_SESV2', '_ROUTE_53', '_ACM', '_SSM'].map((suffix) => [
      `AWS_ENDPOINT_URL${suffix}`,
      url,
    ]),
  );
  return {
    url,
    env,
    calls,
    unknown,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
