import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import {
  GetAccountCommand,
  GetEmailIdentityCommand,
  ListTenantsCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { GetParametersCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { Answer, AwsError } from './findings.ts';

/**
 * The deploy check's AWS calls, every one read-only, with the deployer's
 * credentials (the SDK's default chain) and, for tests, the SDK's own
 * `AWS_ENDPOINT_URL_<SERVICE>` variables. Each answer comes back as data (an
 * error included) for the pure checks to read; nothing here decides.
 */

const toError = (error: unknown): AwsError => {
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  return {
    name: e.name ?? 'Error',
    message: (e.message ?? '').slice(0, 300),
    status: e.$metadata?.httpStatusCode,
  };
};

async function answer<T>(call: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error: toError(error) };
  }
}

/** At most this many names a GetParameters call (the API's limit). */
const NAMES_PER_CALL = 10;

export interface AwsReads {
  region: string;
  lambdaAccountSettings(): ReturnType<typeof readLambda>;
  sesAccount(): ReturnType<typeof readSesAccount>;
  emailIdentity(name: string): ReturnType<typeof readIdentity>;
  sesTenants(): ReturnType<typeof readTenants>;
  hostedZone(id: string): ReturnType<typeof readZone>;
  /** Described in the certificate's own Region, taken from its ARN. */
  certificate(arn: string, region: string): ReturnType<typeof readCertificate>;
  /** Public catalog parameters, read in `catalogRegion`. */
  catalog(names: readonly string[], catalogRegion: string): ReturnType<typeof readCatalog>;
  close(): void;
}

const readLambda = (lambda: LambdaClient) =>
  answer(() => lambda.send(new GetAccountSettingsCommand({})));
const readSesAccount = (ses: SESv2Client) => answer(() => ses.send(new GetAccountCommand({})));
const readIdentity = (ses: SESv2Client, name: string) =>
  answer(() => ses.send(new GetEmailIdentityCommand({ EmailIdentity: name })));
const readTenants = (ses: SESv2Client) =>
  answer(() => ses.send(new ListTenantsCommand({ PageSize: 1 })));
const readZone = (route53: Route53Client, id: string) =>
  answer(() => route53.send(new GetHostedZoneCommand({ Id: id })));
const readCertificate = (acm: ACMClient, arn: string) =>
  answer(() => acm.send(new DescribeCertificateCommand({ CertificateArn: arn })));

async function readCatalog(ssm: SSMClient, names: readonly string[]) {
  return answer(async () => {
    const merged = { Parameters: [] as { Name?: string }[], InvalidParameters: [] as string[] };
    for (let i = 0; i < names.length; i += NAMES_PER_CALL) {
      const page = await ssm.send(
        new GetParametersCommand({ Names: names.slice(i, i + NAMES_PER_CALL) }),
      );
      merged.Parameters.push(...(page.Parameters ?? []));
      merged.InvalidParameters.push(...(page.InvalidParameters ?? []));
    }
    return merged;
  });
}

/**
 * Clients for `region` (what the stack deploys to); Route 53 is global, ACM
 * and the catalog get a client for the Region they are read in.
 */
export function awsReads(region: string): AwsReads {
  const lambda = new LambdaClient({ region });
  const ses = new SESv2Client({ region });
  const route53 = new Route53Client({ region });
  const others: { destroy(): void }[] = [];
  return {
    region,
    lambdaAccountSettings: () => readLambda(lambda),
    sesAccount: () => readSesAccount(ses),
    emailIdentity: (name) => readIdentity(ses, name),
    sesTenants: () => readTenants(ses),
    hostedZone: (id) => readZone(route53, id),
    certificate: (arn, certificateRegion) => {
      const acm = new ACMClient({ region: certificateRegion });
      others.push(acm);
      return readCertificate(acm, arn);
    },
    catalog: (names, catalogRegion) => {
      const ssm = new SSMClient({ region: catalogRegion });
      others.push(ssm);
      return readCatalog(ssm, names);
    },
    close: () => {
      for (const client of [lambda, ses, route53, ...others]) client.destroy();
    },
  };
}

/**
 * The credentials the SDK's default chain finds, resolved before any check
 * so that "no credentials" is one clear error rather than every check failing.
 */
export async function resolveCredentials(region: string): Promise<void> {
  const lambda = new LambdaClient({ region });
  try {
    await lambda.config.credentials();
  } finally {
    lambda.destroy();
  }
}

/** The Region the SDK resolves (`AWS_REGION`, the profile), or undefined. */
export async function resolveRegion(): Promise<string | undefined> {
  const lambda = new LambdaClient({});
  try {
    return await lambda.config.region();
  } catch {
    return undefined;
  } finally {
    lambda.destroy();
  }
}
