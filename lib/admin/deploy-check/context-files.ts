import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContextLayers } from './settings.ts';

/**
 * CDK context from where the CDK CLI finds it: cdk.json's `context` and
 * cdk.context.json in the app's directory, ~/.cdk.json's `context`, and the
 * command line's `-c key=value` (aws-cdk 2.1148's Configuration).
 */
export async function readContextLayers(
  appDirectory: string,
  home: string,
  assignments: readonly string[],
): Promise<ContextLayers> {
  const cdkJson = await readJson(join(appDirectory, 'cdk.json'));
  const user = await readJson(join(home, '.cdk.json'));
  return {
    commandLine: parseAssignments(assignments),
    cdkJson: objectAt(cdkJson, 'context'),
    projectContext: (await readJson(join(appDirectory, 'cdk.context.json'))) ?? {},
    userContext: objectAt(user, 'context'),
  };
}

/** `-c key=value` as the CDK CLI takes it: split at the first `=`, no `aws:` keys. */
export function parseAssignments(assignments: readonly string[]): Record<string, string> {
  const context: Record<string, string> = {};
  for (const assignment of assignments) {
    const at = assignment.indexOf('=');
    if (at < 1) throw new Error(`-c ${assignment}: context must be key=value`);
    const key = assignment.slice(0, at);
    if (key.startsWith('aws:')) throw new Error(`-c ${key}: keys prefixed with aws: are reserved`);
    context[key] = assignment.slice(at + 1);
  }
  return context;
}

async function readJson(path: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function objectAt(file: Record<string, unknown> | undefined, key: string): Record<string, unknown> {
  const value = file?.[key];
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
