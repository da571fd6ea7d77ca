import { fileURLToPath } from 'node:url';
import { CfnOutput, Stack, type StackProps, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import {
  fallbackRoute,
  ROUTE_AREAS,
  type Route,
  type RouteArea,
  routeFunctions,
  routes as routeTable,
} from '#routes';
import { settingsEnvironment } from '#settings';
import { type Worker, workers as workerTable } from '#workers';
import { type AccessTargets, grantAccess } from './constructs/access.ts';
import { EmailSending } from './constructs/email.ts';
import { GoogleServiceAccount } from './constructs/google-service-account.ts';
import { KeyedHashSecret } from './constructs/keyed-hash-secret.ts';
import { MalwareScanning } from './constructs/malware-scanning.ts';
import { Observability } from './constructs/observability.ts';
import { Queues } from './constructs/queues.ts';
import { Scheduling } from './constructs/scheduling.ts';
import { SendingDomain } from './constructs/sending-domain.ts';
import { type FunctionDefaults, ServiceFunction } from './constructs/service-function.ts';
import { Storage } from './constructs/storage.ts';
import { planDomains } from './own-domain.ts';
import { readSettings } from './settings.ts';
import { ApiStack } from './stacks/api-stack.ts';
import { isSubmitRoute, RouteAreaStack } from './stacks/route-area-stack.ts';
import { StageStack } from './stacks/stage-stack.ts';
import { WorkersStack } from './stacks/workers-stack.ts';

export interface FormServiceStackProps extends StackProps {
  /** The route table; tests substitute their own. Defaults to lambdas/routes.ts. */
  routes?: readonly Route[];
  /** The worker table; tests substitute their own. Defaults to lambdas/workers.ts. */
  workers?: readonly Worker[];
}

const LAMBDAS_DIR = fileURLToPath(new URL('../lambdas/', import.meta.url));

/**
 * The whole service (docs/architecture.md#stacks). This stack keeps the
 * shared state: the table and buckets, the queues, the secrets, the email
 * identity, the schedule group. What reads and writes it lives in nested
 * stacks by area, each well under CloudFormation's 500 resources: the API
 * and its paths; one stack per route area (lambdas/routes.ts `area`) with
 * its functions and methods; the workers (lambdas/workers.ts); the API's
 * deployment, stage and domain; the alarms and the dashboard. Each function
 * gets exactly the grants its entry's `access` lists, plus what its trigger
 * needs.
 */
export class FormServiceStack extends Stack {
  readonly storage: Storage;
  readonly queues: Queues;
  readonly api: ApiStack;
  readonly areas: ReadonlyMap<RouteArea, RouteAreaStack>;
  readonly workers: WorkersStack;
  readonly stage: StageStack;
  readonly observability: Observability;
  readonly fallback: ServiceFunction;
  /** GuardDuty Malware Protection on the uploads bucket; none with `malwareScanning: off`. */
  readonly malwareScanning: MalwareScanning | undefined;

  constructor(scope: Construct, id: string, props: FormServiceStackProps = {}) {
    super(scope, id, props);
    const settings = readSettings(this);
    const domains = planDomains(
      settings,
      Token.isUnresolved(this.region) ? process.env.CDK_DEFAULT_REGION : this.region,
    );
    const routes = props.routes ?? routeTable;
    const workers = props.workers ?? workerTable;

    this.storage = new Storage(this, 'Storage', {
      tableDeletionProtection: settings.tableDeletionProtection,
      accessLogRetentionDays: settings.accessLogRetentionDays,
    });
    const sendingDomain = domains.email && new SendingDomain(this, 'SendingDomain', domains.email);
    this.queues = new Queues(this, 'Queues', settings);
    const email = new EmailSending(
      this,
      'Email',
      sendingDomain?.domain || settings.sesIdentity || settings.emailSenderAddress.split('@')[1]!,
      { sesTenants: settings.sesTenants },
    );
    let scheduling: Scheduling | undefined;
    let keyedHashSecret: KeyedHashSecret | undefined;
    const targets: AccessTargets = {
      storage: this.storage,
      queues: this.queues,
      email,
      scheduling: () => {
        scheduling ??= new Scheduling(this, 'Scheduling');
        return scheduling;
      },
      keyedHashSecret: () => {
        keyedHashSecret ??= new KeyedHashSecret(this, settings.keyedHashSecretArn);
        return keyedHashSecret;
      },
      googleServiceAccount: new GoogleServiceAccount(settings.googleServiceAccountSecret),
    };

    this.api = new ApiStack(this, 'Api', {
      routes,
      stageName: settings.apiStageName,
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
    });
    const baseUrl = domains.baseUrl || this.api.defaultBaseUrl;

    // What every function reads through lambdas/config.ts: the deployer
    // settings of lambdas/settings.ts; the table and bucket names come with
    // their grants instead.
    const functionDefaults: FunctionDefaults = {
      environment: { BASE_URL: baseUrl, ...settingsEnvironment(settings) },
      logLevel: settings.logLevel,
      logRetention: settings.logRetentionDays,
      tracing: settings.tracing,
    };

    this.fallback = new ServiceFunction(this.api, fallbackRoute.name, {
      ...functionDefaults,
      entry: `${LAMBDAS_DIR}${fallbackRoute.handler}`,
      description: 'Answers 404/405 for every request no route takes',
      memoryMb: fallbackRoute.memoryMb,
      timeoutSeconds: fallbackRoute.timeoutSeconds,
    });
    grantAccess(this.fallback, fallbackRoute.access, targets);
    this.api.routeEverythingElseTo(this.fallback);

    // One function per route, or per group of routes with the same grants, in its area's stack.
    const functions = routeFunctions(routes);
    const areas = new Map<RouteArea, RouteAreaStack>();
    for (const area of ROUTE_AREAS) {
      const ofArea = functions.filter((fn) => fn.area === area);
      if (ofArea.length === 0) continue;
      areas.set(
        area,
        new RouteAreaStack(this, `${area.charAt(0).toUpperCase()}${area.slice(1)}Routes`, {
          area,
          functions: ofArea,
          api: this.api,
          stageName: settings.apiStageName,
          lambdasDir: LAMBDAS_DIR,
          functionDefaults,
          targets,
          submitReservedConcurrency: settings.submitReservedConcurrency,
        }),
      );
    }
    this.areas = areas;

    // The event-driven side (lambdas/workers.ts): queues, the stream-failure
    // queue and Scheduling are built on first use by a worker or an access.
    this.workers = new WorkersStack(this, 'Workers', {
      workers,
      lambdasDir: LAMBDAS_DIR,
      functionDefaults,
      targets,
      settings,
    });

    // SES's events reach their worker when the worker table has one (test tables may not).
    const emailEvents = this.queues.all().find((queue) => queue.definition.name === 'emailEvents');
    if (emailEvents) email.publishEventsTo(emailEvents);

    // Uploaded files checked for malware before anyone opens them
    // (docs/uploads-and-pages.md#malware-scanning): the plan, its role, the bucket policy,
    // the results to their worker's queue.
    this.malwareScanning =
      settings.malwareScanning === 'off'
        ? undefined
        : new MalwareScanning(this, 'MalwareScanning', {
            uploads: this.storage.uploads,
            results: this.queues.all().find((queue) => queue.definition.name === 'scanResults'),
          });

    this.stage = new StageStack(this, 'Stage', {
      api: this.api,
      functions,
      stageName: settings.apiStageName,
      throttleRatePerSecond: settings.apiThrottleRatePerSecond,
      throttleBurst: settings.apiThrottleBurst,
      submitThrottle: {
        ratePerSecond: settings.submitThrottleRatePerSecond,
        burst: settings.submitThrottleBurst,
      },
      logRetention: settings.logRetentionDays,
      tracing: settings.tracing,
      domain: domains.api,
      webAclArn: settings.webAclArn,
    });

    // Last: it finds every function, queue and alarm built above.
    this.observability = new Observability(this, 'Observability', {
      settings,
      restApi: this.api.restApi,
      stageName: settings.apiStageName,
      submitRoute: routes.find(isSubmitRoute),
      queues: this.queues.all(),
      streamConsumers: this.workers.streamConsumers,
      configurationSetName: email.configurationSet.configurationSetName,
      malwareScanning: this.malwareScanning !== undefined,
    });

    new CfnOutput(this, 'ApiUrl', {
      value: this.stage.stage.urlForPath(),
      description: 'Invoke URL of the API stage',
    });
    new CfnOutput(this, 'BaseUrl', {
      value: baseUrl,
      description: '{base_url} of the API: submit at {base_url}/s/{key}, manage at {base_url}/v1',
    });
    new CfnOutput(this, 'TableName', { value: this.storage.table.tableName });
    new CfnOutput(this, 'UploadsBucket', { value: this.storage.uploads.bucketName });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.observability.topic.topicArn,
      description:
        'Every alarm of the stack notifies this SNS topic: subscribe a pager or chat to it',
    });
    // Where `npm run admin -- stream replay --queue-url` sends a range's submissions
    // (docs/operations.md#replaying-the-stream), when the worker table has the replayer.
    const replays = this.queues.all().find((queue) => queue.definition.name === 'replays');
    if (replays) {
      new CfnOutput(this, 'ReplayQueueUrl', {
        value: replays.queue.queueUrl,
        description: 'The replay queue: npm run admin -- stream replay --queue-url <this>',
      });
    }
    const dnsRecord = this.stage.customDomain?.dnsRecord;
    if (dnsRecord) {
      new CfnOutput(this, 'DnsTarget', {
        value: dnsRecord,
        description: 'DNS record to add so the custom domain reaches the API',
      });
    }
  }

  /** The function built for a route (its group's when grouped), the fallback or a worker, by name. */
  functionOf(name: string, table: readonly Route[] = routeTable): ServiceFunction {
    if (name === fallbackRoute.name) return this.fallback;
    const group = table.find((route) => route.name === name)?.group;
    for (const area of this.areas.values()) {
      const found = area.functions.get(group ?? name);
      if (found) return found;
    }
    const worker = this.workers.functions.get(name);
    if (worker) return worker;
    throw new Error(`no function named "${name}" in the stack`);
  }

  /** Every function of the stack, in whichever nested stack it lives. */
  allFunctions(): ServiceFunction[] {
    return [
      this.fallback,
      ...[...this.areas.values()].flatMap((area) => [...area.functions.values()]),
      ...this.workers.functions.values(),
    ];
  }
}
