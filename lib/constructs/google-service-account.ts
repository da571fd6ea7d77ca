import { SecretValue } from 'aws-cdk-lib';

/** What the key is handed to: a function's environment. */
interface Holder {
  addEnvironment(name: string, value: string): void;
}

/**
 * The Google service account's key (docs/integrations.md#google-cloud-setup),
 * read the way the keyed-hash secret is (lib/constructs/keyed-hash-secret.ts):
 * the deployer stores the downloaded JSON key in a Secrets Manager secret and
 * names it with `-c googleServiceAccountSecret=…`; CloudFormation resolves
 * its `client_email` and `private_key` members into the environment of the
 * functions granted `secrets:googleServiceAccount` (dynamic references: the
 * template holds only the secret's name), so no Secrets Manager client or
 * call is needed at run time. Only those two members go in: the whole key
 * file is about 2.3 KB of Lambda's 4 KB of environment, the private key
 * alone about 1.7 KB. With no secret named, nothing is added and the
 * functions see no key.
 */
export class GoogleServiceAccount {
  readonly secretName: string;

  constructor(secretName: string) {
    this.secretName = secretName;
  }

  grantUse(fn: Holder): void {
    if (this.secretName === '') return;
    this.grantAddress(fn);
    fn.addEnvironment('GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY', this.member('private_key'));
  }

  /** The account's address alone: what owners share a sheet with, no key. */
  grantAddress(fn: Holder): void {
    if (this.secretName === '') return;
    fn.addEnvironment('GOOGLE_SERVICE_ACCOUNT_EMAIL', this.member('client_email'));
  }

  private member(jsonField: string): string {
    return SecretValue.secretsManager(this.secretName, { jsonField }).unsafeUnwrap();
  }
}
