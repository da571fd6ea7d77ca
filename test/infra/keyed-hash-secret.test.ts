import { describe, expect, it } from 'vitest';
import { routes } from '#routes';
import { propertiesOf, resourcesOfType, synthesize } from './synthesize.ts';

const built = synthesize();
const functions = Object.values(resourcesOfType(built.template, 'AWS::Lambda::Function'));
const variablesOf = (fn: unknown) =>
  (propertiesOf(fn as never).Environment as { Variables?: Record<string, unknown> })?.Variables ??
  {};

describe('the keyed-hash secret (docs/deploying.md#the-keyed-hash-secret)', () => {
  it('is one generated Secrets Manager secret, resolved into the submit function only', () => {
    const secrets = Object.entries(resourcesOfType(built.template, 'AWS::SecretsManager::Secret'));
    expect(secrets).toHaveLength(1);
    const [secretId, secret] = secrets[0]!;
    expect(propertiesOf(secret).GenerateSecretString).toMatchObject({ PasswordLength: 64 });

    const submit = built.functionOf('submit').lambda;
    const holders = functions.filter((fn) => 'KEYED_HASH_SECRET' in variablesOf(fn));
    expect(holders).toHaveLength(1);
    const submitFn = built.template.toJSON().Resources[built.logicalId(submit)];
    expect(holders[0]).toEqual(submitFn);
    // A dynamic reference CloudFormation resolves at deploy: the template holds no value.
    const value = JSON.stringify(variablesOf(holders[0]).KEYED_HASH_SECRET);
    expect(value).toContain('{{resolve:secretsmanager:');
    expect(value).toContain(secretId);
  });

  it('is granted by the routes that name secrets:keyedHash, and only submit does', () => {
    expect(
      routes.filter((route) => route.access.includes('secrets:keyedHash')).map((r) => r.name),
    ).toEqual(['submit']);
  });
});
