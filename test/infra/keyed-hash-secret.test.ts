import { describe, expect, it } from 'vitest';
import { routes } from '#routes';
import { propertiesOf, resourcesOfType, synthesize } from './synthesize.ts';

const built = synthesize();
const functions = Object.values(resourcesOfType(built.template, 'AWS::Lambda::Function'));
const variablesOf = (fn: unknown) =>
  (propertiesOf(fn as never).Environment as { Variables?: Record<string, unknown> })?.Variables ??
  {};

describe('the keyed-hash secret (docs/deploying.md#the-keyed-hash-secret)', () => {
  // Submit hashes what it stores; erase and export by email hash the address they look up
  // (docs/privacy.md#how-a-person-is-found).
  const HOLDERS = ['submit', 'privacy', 'exportPersonSubmissions', 'liftSuppression'];
  const ROUTES = ['submit', 'erasePersonSubmissions', 'exportPersonSubmissions', 'liftSuppression'];

  it('is one generated Secrets Manager secret, resolved into the functions that hash only', () => {
    const secrets = Object.entries(resourcesOfType(built.template, 'AWS::SecretsManager::Secret'));
    expect(secrets).toHaveLength(1);
    const [secretId, secret] = secrets[0]!;
    expect(propertiesOf(secret).GenerateSecretString).toMatchObject({ PasswordLength: 64 });

    const holders = functions.filter((fn) => 'KEYED_HASH_SECRET' in variablesOf(fn));
    const expected = HOLDERS.map(
      (name) => built.template.toJSON().Resources[built.logicalId(built.functionOf(name).lambda)],
    );
    expect(holders).toHaveLength(HOLDERS.length);
    for (const fn of expected) expect(holders).toContainEqual(fn);
    for (const holder of holders) {
      // A dynamic reference CloudFormation resolves at deploy: the template holds no value.
      const value = JSON.stringify(variablesOf(holder).KEYED_HASH_SECRET);
      expect(value).toContain('{{resolve:secretsmanager:');
      expect(value).toContain(secretId);
    }
  });

  it('is granted by the routes that name secrets:keyedHash, and only those that hash', () => {
    expect(
      routes.filter((route) => route.access.includes('secrets:keyedHash')).map((r) => r.name),
    ).toEqual(ROUTES);
  });
});
