import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { FormServiceStack, type FormServiceStackProps } from './form-service-stack.ts';
import { readSettings } from './settings.ts';

/**
 * The app as `cdk synth` builds it, shared with the infra tests so they check
 * the same construct tree (including the cdk-nag plugin) that gets deployed.
 * The stack is environment-agnostic: synth needs no account, credentials or
 * network.
 */
export function createFormServiceApp(
  appProps: AppProps = {},
  stackProps: FormServiceStackProps = {},
): { app: App; stack: FormServiceStack } {
  const app = new App(appProps);
  const { stackName } = readSettings(app);
  const stack = new FormServiceStack(app, stackName, {
    description: 'Hosted form backend: submit endpoint, management API, uploads, webhooks',
    ...stackProps,
  });
  // Runs after synthesis; an unacknowledged error-level finding fails the synth.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
