import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { installAwsLambdaGlobal } from './awslambda-shim.ts';

/**
 * Loads handler modules the way Lambda does (one module instance per
 * "function", reused across invocations, the runtime's `awslambda` global
 * defined before any of them loads) and builds the invocation context.
 */
export const LAMBDAS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lambdas');

// biome-ignore lint/suspicious/noExplicitAny: handlers take many event shapes.
export type LambdaHandler = (event: any, context: Context) => Promise<any>;

const modules = new Map<string, Promise<LambdaHandler>>();

export function loadHandler(handlerModule: string): Promise<LambdaHandler> {
  let loaded = modules.get(handlerModule);
  if (!loaded) {
    installAwsLambdaGlobal();
    loaded = import(pathToFileURL(join(LAMBDAS_DIR, handlerModule)).href).then((mod) => {
      if (typeof mod.handler !== 'function') {
        throw new Error(`lambdas/${handlerModule} does not export a handler function`);
      }
      return mod.handler as LambdaHandler;
    });
    modules.set(handlerModule, loaded);
  }
  return loaded;
}

export function lambdaContext(
  functionName: string,
  timeoutSeconds: number,
  requestId: string = randomUUID(),
): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: localFunctionArn(functionName),
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT = '000000000000';

export function localFunctionArn(functionName: string): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${functionName}`;
}

/** The function each invocation runs as, across its awaits. */
const invocations = new AsyncLocalStorage<string>();

/**
 * The local function whose invocation this code runs in (a route's, a
 * worker's), or undefined outside any: a bench in the stack's process
 * attributes the calls of the one shared DynamoDB client by it.
 */
export function currentLocalFunction(): string | undefined {
  return invocations.getStore();
}

/** Runs `invoke` as an invocation of `functionName` (see currentLocalFunction). */
export function asInvocationOf<T>(functionName: string, invoke: () => T): T {
  return invocations.run(functionName, invoke);
}

/** Runs a handler with the function's timeout, as Lambda would end it. */
export function invokeWithTimeout<T>(
  handler: LambdaHandler,
  event: unknown,
  context: Context,
  timeoutSeconds: number,
): Promise<T> {
  return withinTimeout(
    asInvocationOf(context.functionName, () => handler(event, context)),
    timeoutSeconds,
  );
}

/** The invocation's work, failed with Lambda's message once the function's time is up. */
export async function withinTimeout<T>(work: Promise<T>, timeoutSeconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Task timed out after ${timeoutSeconds} seconds`)),
      timeoutSeconds * 1000,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
