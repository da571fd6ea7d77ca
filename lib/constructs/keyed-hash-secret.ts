import { type Stack, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ServiceFunction } from './service-function.ts';

/**
 * The deployment's secret for keyed hashes of personal data (a team's visitor
 * addresses, docs/people.md#visitor-addresses): 64 characters Secrets Manager
 * generates once, when the stack is first deployed, and keeps for the stack's
 * life. CloudFormation resolves it into `KEYED_HASH_SECRET` of the functions
 * granted `secrets:keyedHash` (a dynamic reference: the template holds only
 * the secret's name), so a post pays no Secrets Manager call and no client.
 * Built on first use.
 */
export class KeyedHashSecret {
  readonly secret: Secret;

  constructor(stack: Stack) {
    this.secret = new Secret(stack, 'KeyedHashSecret', {
      description:
        'Key of the keyed hashes of personal data (visitor addresses); changing it changes every hash made after',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Not rotated on purpose: a stored hash must match the same address later (same visitor, block by hash); a rotation would split every team’s visitors in two.',
    });
  }

  grantUse(fn: ServiceFunction): void {
    fn.addEnvironment('KEYED_HASH_SECRET', this.secret.secretValue.unsafeUnwrap());
  }
}
