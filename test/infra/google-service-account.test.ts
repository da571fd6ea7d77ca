import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { GoogleServiceAccount } from '#lib/constructs/google-service-account.ts';
import { STACK_SETTINGS } from '#lib/settings.ts';
import { routes } from '#routes';
import { workers } from '#workers';
import { propertiesOf, resourcesOfType, synthesize } from './synthesize.ts';

/** A stack with one function granted the Google key of `secretName`; its environment. */
function environmentWith(secretName: string): Record<string, unknown> {
  const stack = new Stack(new App(), 'GoogleKeyProbe');
  const fn = new LambdaFunction(stack, 'Probe', {
    runtime: Runtime.NODEJS_24_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => {}'),
  });
  new GoogleServiceAccount(secretName).grantUse(fn);
  const [probe] = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'));
  return (
    (probe!.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables ?? {}
  );
}

describe('the Google service account key (docs/integrations.md#google-cloud-setup)', () => {
  it('is resolved from the named secret at deploy: its address and private key only', () => {
    const variables = environmentWith('form-service/google-service-account');
    expect(variables).toEqual({
      GOOGLE_SERVICE_ACCOUNT_EMAIL:
        '{{resolve:secretsmanager:form-service/google-service-account:SecretString:client_email::}}',
      GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY:
        '{{resolve:secretsmanager:form-service/google-service-account:SecretString:private_key::}}',
    });
  });

  it('adds nothing when no secret is named (no key: Sheets not offered)', () => {
    expect(environmentWith('')).toEqual({});
  });

  it('takes a secret name from context, and refuses what is not one', () => {
    const { parse } = STACK_SETTINGS.googleServiceAccountSecret;
    expect(parse('form-service/google-service-account')).toBe(
      'form-service/google-service-account',
    );
    expect(parse('')).toBe('');
    expect(() => parse('a name with spaces')).toThrow(/must match/);
    expect(() => parse('x'.repeat(513))).toThrow(/must match/);
  });
});

describe('who holds the Google key in the stack (docs/integrations.md#google-cloud-setup)', () => {
  const built = synthesize({
    context: { googleServiceAccountSecret: 'form-service/google-service-account' },
  });
  const variablesOf = (fn: unknown) =>
    (propertiesOf(fn as never).Environment as { Variables?: Record<string, unknown> })?.Variables ??
    {};

  it('is granted by the connect route and the Sheets worker only', () => {
    const grants = (list: readonly { name: string; access: readonly string[] }[]) =>
      list
        .filter((each) => each.access.includes('secrets:googleServiceAccount'))
        .map((e) => e.name);
    expect(grants(routes)).toEqual(['putIntegration']);
    expect(grants(workers)).toEqual(['sheetsWorker']);
  });

  const holding = (variable: string) =>
    Object.values(resourcesOfType(built.flat, 'AWS::Lambda::Function')).filter(
      (fn) => variable in variablesOf(fn),
    );
  const functionNamed = (name: string) =>
    built.flat.toJSON().Resources[built.logicalId(built.functionOf(name).lambda)];

  it("is in the environment of the connect route's own function and the Sheets worker, no other", () => {
    const functions = holding('GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY');
    expect(functions).toHaveLength(2);
    for (const name of ['putIntegration', 'sheetsWorker']) {
      expect(functions).toContainEqual(functionNamed(name));
    }
    // Its own function: not the webhooks group's, which every webhook and integration route shares.
    expect(functionNamed('putIntegration')).not.toEqual(functionNamed('getIntegrations'));
  });

  it('gives the integrations list its address alone, to show owners what to share a sheet with', () => {
    const functions = holding('GOOGLE_SERVICE_ACCOUNT_EMAIL');
    expect(functions).toHaveLength(3);
    expect(functions).toContainEqual(functionNamed('getIntegrations'));
    expect(variablesOf(functionNamed('getIntegrations'))).not.toHaveProperty(
      'GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY',
    );
  });
});
