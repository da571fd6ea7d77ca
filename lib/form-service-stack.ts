import { fileURLToPath } from 'node:url';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { fallbackRoute, type Route, routes as routeTable } from '../lambdas/routes.ts';
import { grantAccess } from './constructs/access.ts';
import { Api } from './constructs/api.ts';
import { Scheduling } from './constructs/scheduling.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { Storage } from './constructs/storage.ts';
import { readSettings } from './settings.ts';

export interface FormServiceStackProps extends StackProps {
  /** The route table; tests substitute their own. Defaults to lambdas/routes.ts. */
  routes?: readonly Route[];
}

const LAMBDAS_DIR = fileURLToPath(new URL('../lambdas/', import.meta.url));

/**
 * The whole service: storage, the HTTP API with one function per route, and
 * (as later capabilities land) delivery, scheduling and observability. Each
 * function gets exactly the grants its route's `access` lists.
 */
export class FormServiceStack extends Stack {
  readonly storage: Storage;
  readonly api: Api;

  constructor(scope: Construct, id: string, props: FormServiceStackProps = {}) {
    super(scope, id, props);
    const settings = readSettings(this);
    const routes = props.routes ?? routeTable;

    this.storage = new Storage(this, 'Storage', {
      tableDeletionProtection: settings.tableDeletionProtection,
      accessLogRetentionDays: settings.accessLogRetentionDays,
    });

    this.api = new Api(this, 'Api', {
      stageName: settings.stageName,
      throttleRatePerSecond: settings.throttleRatePerSecond,
      throttleBurst: settings.throttleBurst,
      logRetention: settings.logRetention,
      tracing: settings.tracing,
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
    });
    const baseUrl = settings.baseUrl ?? this.api.defaultBaseUrl;

    let scheduling: Scheduling | undefined;
    const targets = {
      storage: this.storage,
      scheduling: () => {
        scheduling ??= new Scheduling(this, 'Scheduling');
        return scheduling;
      },
    };

    // What every HTTP function reads through lambdas/config.ts; the table and
    // bucket names come with their grants instead.
    const httpEnvironment = {
      BASE_URL: baseUrl,
      FREE_FORM_LIMIT: String(settings.freeFormLimit),
      FREE_MONTHLY_SUBMISSIONS: String(settings.freeMonthlySubmissions),
      PRO_MONTHLY_SUBMISSIONS: String(settings.proMonthlySubmissions),
      MANAGEMENT_RATE_PER_MINUTE: String(settings.managementRatePerMinute),
    };
    const functionDefaults = {
      environment: httpEnvironment,
      logLevel: settings.logLevel,
      logRetention: settings.logRetention,
      tracing: settings.tracing,
    };

    for (const route of routes) {
      const fn = new ServiceFunction(this, route.name, {
        ...functionDefaults,
        entry: `${LAMBDAS_DIR}${route.handler}`,
        description: `${route.method} ${route.path}: ${route.summary}`,
        memoryMb: route.memoryMb,
        timeoutSeconds: route.timeoutSeconds,
      });
      grantAccess(fn, route.access, targets);
      this.api.addRoute(route, fn);
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

    // Later capabilities plug in here, each a construct in lib/constructs/:
    // - Delivery: table stream → stream-fanout → webhook and email queues
    //   (lambdas/queues.ts) with DLQs, and their workers.
    // - Scheduling: built above on first use by a route with
    //   'schedules:manage'; the form closer becomes its target
    //   (`scheduling.allowInvoke`).
    // - Observability: alarms (DLQ depth, errors, throttles, 5xx) and a dashboard.

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
