import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import { type PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ESBUILD_FLAGS } from '#lib/bundling.ts';
import type { LogLevel } from '#settings';

const BUNDLE_FUNCTION = fileURLToPath(new URL('../../bin/bundle-function.ts', import.meta.url));

export interface ServiceFunctionProps {
  /** Absolute path of the handler module; it exports `handler`. */
  entry: string;
  description: string;
  memoryMb: number;
  timeoutSeconds: number;
  environment: Record<string, string>;
  logLevel: LogLevel;
  logRetention: RetentionDays;
  tracing: boolean;
  /** Concurrent executions reserved for (and capping) this function; absent: none. */
  reservedConcurrency?: number;
}

/** What every function of the stack shares, whatever its route or worker. */
export type FunctionDefaults = Omit<
  ServiceFunctionProps,
  'entry' | 'description' | 'memoryMb' | 'timeoutSeconds' | 'reservedConcurrency'
>;

/**
 * The one way this service defines a Lambda function, so every function
 * shares runtime, architecture, bundling, log group and role shape. Grants
 * arrive through `addToRolePolicy`/`addEnvironment` from the capability that
 * owns the resource (Storage, Scheduling), never as hand-written IAM here.
 */
export class ServiceFunction extends Construct {
  readonly lambda: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  /** Concurrent executions reserved for it; undefined: none (it shares the account's pool). */
  readonly reservedConcurrency: number | undefined;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.reservedConcurrency = props.reservedConcurrency || undefined;

    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention });

    // Our own role instead of the default one: the default attaches the
    // AWS-managed AWSLambdaBasicExecutionRole (logs on every log group of the
    // account); this role may write to its own log group only.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${this.node.path}`,
    });
    this.logGroup.grantWrite(this.role);

    this.lambda = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      description: props.description.slice(0, 256),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutSeconds),
      reservedConcurrentExecutions: this.reservedConcurrency,
      role: this.role,
      logGroup: this.logGroup,
      // Platform lines (START/REPORT, uncaught errors) become JSON like the
      // handlers' own lines, so one Logs Insights query reads both.
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: APPLICATION_LOG_LEVEL[props.logLevel],
      systemLogLevelV2: SystemLogLevel.INFO,
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      environment: {
        ...props.environment,
        LOG_LEVEL: props.logLevel,
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        // Bundle the SDK: the runtime's copy is a version we never tested
        // against, and bundling lets esbuild drop the unused parts.
        externalModules: [],
        // ESM builds of dependencies where published (tree-shakes the SDK).
        mainFields: ['module', 'main'],
        minify: true,
        sourceMap: true,
        // Stack traces need the mappings only; the sources would double the size.
        sourcesContent: false,
        // Bundled CommonJS dependencies call require(), which ESM lacks.
        banner: ESBUILD_FLAGS.banner.js,
        // NodejsFunction writes one file; the house build (lib/bundling.ts)
        // then bundles again with code splitting, so what a handler loads
        // with import() stays out of its cold start.
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_input: string, output: string) => [
            [process.execPath, BUNDLE_FUNCTION, props.entry, output]
              .map((part) => JSON.stringify(part))
              .join(' '),
          ],
        },
      },
    });

    if (props.tracing) {
      // X-Ray accepts trace segments only on Resource "*"; the actions are fixed.
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions.',
      });
    }
  }

  addEnvironment(name: string, value: string): void {
    this.lambda.addEnvironment(name, value);
  }

  addToRolePolicy(statement: PolicyStatement): void {
    this.role.addToPrincipalPolicy(statement);
  }
}

const APPLICATION_LOG_LEVEL: Record<LogLevel, ApplicationLogLevel> = {
  debug: ApplicationLogLevel.DEBUG,
  info: ApplicationLogLevel.INFO,
  warn: ApplicationLogLevel.WARN,
  error: ApplicationLogLevel.ERROR,
};
