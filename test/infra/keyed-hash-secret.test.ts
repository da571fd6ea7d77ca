import { describe, expect, it } from 'vitest';
import { routes } from '#routes';
import { propertiesOf, resourcesOfType, synthesize } from './synthesize.ts';

const built = synthesize();
const functions = Object.values(resourcesOfType(built.flat, 'AWS::Lambda::Function'));
const variablesOf = (fn: unknown) =>
  (propertiesOf(fn as never).Environment as { Variables?: Record<string, unknown> })?.Variables ??
  {};

/** Each a function of its own: no group holds the secret for a route that does not hash. */
const ROUTES_HOLDING = [
  'submit',
  'erasePersonSubmissions',
  'exportPersonSubmissions',
  'liftSuppression',
  // A confirmation link's signature is checked with a key derived from it (docs/submit.md#confirm-by-email).
  'getConfirmPage',
  'confirmSubmission',
];

describe('the keyed-hash secret (docs/deploying.md#the-keyed-hash-secret)', () => {
  // Submit hashes what it stores; erase and export by email hash the address they look up
  // (docs/privacy.md#how-a-person-is-found).
  // The email worker signs the confirmation links it sends.
  const HOLDERS = [...ROUTES_HOLDING, 'emailWorker'];
  const ROUTES = ROUTES_HOLDING;

  it('is one generated Secrets Manager secret, resolved into the functions that hash only', () => {
    const secrets = Object.entries(resourcesOfType(built.template, 'AWS::SecretsManager::Secret'));
    expect(secrets).toHaveLength(1);
    const [secretId, secret] = secrets[0]!;
    expect(propertiesOf(secret).GenerateSecretString).toMatchObject({ PasswordLength: 64 });
    // The table is kept when the stack is destroyed; the key its hashes were made with too.
    expect(secret).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });

    const holders = functions.filter((fn) => 'KEYED_HASH_SECRET' in variablesOf(fn));
    const expected = HOLDERS.map(
      (name) => built.flat.toJSON().Resources[built.logicalId(built.functionOf(name).lambda)],
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

  it('a stack restored over kept data names the kept secret instead of making one', () => {
    const kept =
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:KeyedHashSecret1A2B3C4D-AbCdEf';
    const restored = synthesize({ context: { keyedHashSecretArn: kept } });
    restored.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    const holders = Object.values(resourcesOfType(restored.flat, 'AWS::Lambda::Function')).filter(
      (fn) => 'KEYED_HASH_SECRET' in variablesOf(fn),
    );
    expect(holders).toHaveLength(HOLDERS.length);
    for (const holder of holders) {
      expect(JSON.stringify(variablesOf(holder).KEYED_HASH_SECRET)).toContain(
        `{{resolve:secretsmanager:${kept}:SecretString:::}}`,
      );
    }
  });

  it('refuses a keyedHashSecretArn that is not a secret’s complete ARN', () => {
    expect(() => synthesize({ context: { keyedHashSecretArn: 'KeyedHashSecret' } })).toThrow(
      /keyedHashSecretArn/,
    );
  });
});
