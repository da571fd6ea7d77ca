import type { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ServiceFunction } from './service-function.ts';

/**
 * Sending as the deployment's SES identity: a domain or an address verified
 * in SES outside this stack (verification needs DNS records or a click the
 * stack cannot make). `ses:SendEmail` is granted on that identity only.
 */
export class EmailSending {
  private readonly stack: Stack;
  /** The verified identity: `example.com`, or the sender address itself. */
  readonly identity: string;

  constructor(stack: Stack, identity: string) {
    this.stack = stack;
    this.identity = identity;
  }

  identityArn(): string {
    return this.stack.formatArn({
      service: 'ses',
      resource: 'identity',
      resourceName: this.identity,
    });
  }

  grantSend(fn: ServiceFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['ses:SendEmail'], resources: [this.identityArn()] }),
    );
  }
}
