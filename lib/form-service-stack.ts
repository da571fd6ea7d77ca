import { fileURLToPath } from 'node:url';
import { CfnOutput, Stack, type StackProps, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { fallbackRoute, type Route, routeFunctions, routes as routeTable } from '#routes';
import { settingsEnvironment } from '#settings';
import { type Worker, workers as workerTable } from '#workers';
import { grantAccess } from './constructs/access.ts';
import { Api, isSubmitRoute } from './constructs/api.ts';
import { CustomDomain } from './constructs/custom-domain.ts';
import { EmailSending } from './constructs/email.ts';
import { GoogleServiceAccount } from './constructs/google-service-account.ts';
import { KeyedHashSecret } from './constructs/keyed-hash-secret.ts';
import { Observability } from './constructs/observability.ts';
import { Queues } from './constructs/queues.ts';
import { Scheduling } from './constructs/scheduling.ts';
import { SendingDomain } from './constructs/sending-domain.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { Storage } from './constructs/storage.ts';
import { addWorker } from './constructs/workers.ts';
import { planDomains } from './own-domain.ts';
import { readSettings } from './settings.ts';

export interface FormServiceStackProps extends StackProps {
  /** The route table; tests substitute their own. Defaults to lambdas/routes.ts. */
  routes?: readonly Route[];
  /** The worker table; tests substitute their own. Defaults to lambdas/workers.ts. */
  workers?: readonly Worker[];
}

const LAMBDAS_DIR = fileURLToPath(new URL('../lambdas/', import.meta.url));

/**
 * The whole service: storage, the HTTP API with one function per route, one
 * function per worker with its trigger (table stream, queue, schedule), and
 * (as later capabilities land) observability. Each function gets exactly the
 * grants its entry's `access` lists, plus what its trigger needs.
 */
export class FormServiceStack extends Stack {
  readonly storage: Storage;
  readonly api: Api;
  readonly queues: Queues;
  readonly observability: Observability;

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

    this.api = new Api(this, 'Api', {
      stageName: settings.apiStageName,
      throttleRatePerSecond: settings.apiThrottleRatePerSecond,
      throttleBurst: settings.apiThrottleBurst,
      submitThrottle: {
        ratePerSecond: settings.submitThrottleRatePerSecond,
        burst: settings.submitThrottleBurst,
      },
      logRetention: settings.logRetentionDays,
      tracing: settings.tracing,
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
    });
    if (domains.api) {
      new CustomDomain(this, 'CustomDomain', {
        plan: domains.api,
        api: this.api.restApi,
        stage: this.api.restApi.deploymentStage,
      });
    }
    const baseUrl = domains.baseUrl || this.api.defaultBaseUrl;
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
    const targets = {
      storage: this.storage,
      queues: this.queues,
      email,
      scheduling: () => {
        scheduling ??= new Scheduling(this, 'Scheduling');
        return scheduling;
      },
      keyedHashSecret: () => {
        keyedHashSecret ??= new KeyedHashSecret(this);
        return keyedHashSecret;
      },
      googleServiceAccount: new GoogleServiceAccount(settings.googleServiceAccountSecret),
    };

    // What every function reads through lambdas/config.ts: the deployer
    // settings of lambdas/settings.ts; the table and bucket names come with
    // their grants instead.
    const environment = { BASE_URL: baseUrl, ...settingsEnvironment(settings) };
    const functionDefaults = {
      environment,
      logLevel: settings.logLevel,
      logRetention: settings.logRetentionDays,
      tracing: settings.tracing,
    };

    // One function per route, or per group of routes (routes.ts `group`).
    for (const spec of routeFunctions(routes)) {
      const [first] = spec.routes;
      const fn = new ServiceFunction(this, spec.name, {
        ...functionDefaults,
        entry: `${LAMBDAS_DIR}${spec.handler}`,
        description:
          spec.routes.length === 1 && first
            ? `${first.method} ${first.path}: ${first.summary}`.slice(0, 256)
            : `Routes of group ${spec.name}: ${spec.routes.map((r) => r.name).join(', ')}`.slice(
                0,
                256,
              ),
        memoryMb: spec.memoryMb,
        timeoutSeconds: spec.timeoutSeconds,
        reservedConcurrency: spec.routes.some(isSubmitRoute)
          ? settings.submitReservedConcurrency
          : undefined,
      });
      grantAccess(fn, spec.access, targets);
      for (const route of spec.routes)
        this.api.addRoute(route, fn, { shared: spec.routes.length > 1 });
    }

    const fallback = new ServiceFunction(this, fallbackRoute.name, {
      ...functionDefaults,
      entry: `${LAMBDAS_DIR}${fallbackRoute.handler}`,
      description: 'Answers 404/405 for every request no route takes',
      memoryMb: fallbackRoute.memoryMb,
      timeoutSeconds: fallbackRoute.timeoutSeconds,
    });
    grantAccess(fallback, fallbackRoute.access, targets);
    this.api.routeEverythingElseTo(fallback);

    // The event-driven side (lambdas/workers.ts): queues, the stream-failure
    // queue and Scheduling are built on first use by a worker or an access.
    const streamConsumers: ServiceFunction[] = [];
    for (const worker of workers) {
      const fn = addWorker(this, worker, LAMBDAS_DIR, functionDefaults, targets, settings);
      if (worker.trigger.kind === 'tableStream') streamConsumers.push(fn);
    }

    // SES's events reach their worker when the worker table has one (test tables may not).
    const emailEvents = this.queues.all().find((queue) => queue.definition.name === 'emailEvents');
    if (emailEvents) email.publishEventsTo(emailEvents);

    // Last: it finds every function, queue and alarm built above.
    this.observability = new Observability(this, 'Observability', {
      settings,
      restApi: this.api.restApi,
      stageName: settings.apiStageName,
      submitRoute: routes.find(isSubmitRoute),
      queues: this.queues.all(),
      streamConsumers,
      configurationSetName: email.configurationSet.configurationSetName,
    });

    new CfnOutput(this, 'ApiUrl', {
      value: this.api.restApi.url,
      description: 'Invoke URL of the API stage',
    });
    new CfnOutput(this, 'BaseUrl', {
      value: baseUrl,
      description: '{base_url} of the API: submit at {base_url}/s/{key}, manage at {base_url}/v1',
    });
    new CfnOutput(this, 'TableName', { value: this.storage.table.tableName });
    new CfnOutput(this, 'UploadsBucket', { value: this.storage.uploads.bucketName });
  }
}
