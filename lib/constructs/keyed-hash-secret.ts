import { RemovalPolicy, type Stack, Validations } from 'aws-cdk-lib';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ServiceFunction } from './service-function.ts';

/**
 * The deployment's secret for keyed hashes of personal data (a team's visitor
 * addresses, docs/people.md#visitor-addresses; the email index,
 * docs/privacy.md#how-a-person-is-found): 64 characters Secrets Manager
 * generates once, when the stack is first deployed. Kept like the table
 * when the stack is destroyed: the hashes the table holds match only this
 * key, and a stack restored over the kept table names it with
 * `keyedHashSecretArn` instead of making a new one
 * (docs/deploying.md#what-a-destroy-keeps). CloudFormation resolves it into
 * `KEYED_HASH_SECRET` of the functions granted `secrets:keyedHash` (a dynamic
 * reference: the template holds only the secret's name), so a post pays no
 * Secrets Manager call and no client. Built on first use.
 */
export class KeyedHashSecret {
  readonly secret: ISecret;

  constructor(stack: Stack, existingArn = '') {
    if (existingArn) {
      this.secret = Secret.fromSecretCompleteArn(stack, 'KeyedHashSecret', existingArn);
      return;
    }
    const secret = new Secret(stack, 'KeyedHashSecret', {
      description:
        'Key of the keyed hashes of personal data (visitor addresses, the email index); changing it changes every hash made after. Kept when the stack is destroyed.',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Not rotated on purpose: a stored hash must match the same address later (same visitor, block by hash); a rotation would split every team’s visitors in two.',
    });
    this.secret = secret;
  }

  grantUse(fn: ServiceFunction): void {
    fn.addEnvironment('KEYED_HASH_SECRET', this.secret.secretValue.unsafeUnwrap());
  }
}
