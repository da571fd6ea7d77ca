import { describe, expect, it } from 'vitest';
import { DEPLOY_VARIANTS } from './deploy-variants.ts';
import { stacksOf, synthesize } from './synthesize.ts';

/**
 * Room under CloudFormation's limits (docs/architecture.md#stacks): 500
 * resources, 200 parameters and 200 outputs a template, 1 MB a template
 * uploaded through S3. Our own bounds leave room to grow: no stack over 300
 * resources, no template over 600 KB, as the CDK writes it (one-space
 * indentation), in every shape a deployment takes.
 */
const MAX_RESOURCES = 300;
const MAX_TEMPLATE_BYTES = 600 * 1024;
const MAX_PARAMETERS = 200;
const MAX_OUTPUTS = 200;

interface Measured {
  stack: string;
  resources: number;
  bytes: number;
  parameters: number;
  outputs: number;
}

function measure(context: Record<string, unknown>): Measured[] {
  const built = synthesize({ context });
  return stacksOf(built.stack).map((stack) => {
    const template = built.templates.get(stack.node.path)!.toJSON();
    return {
      stack: stack.node.path,
      resources: Object.keys(template.Resources ?? {}).length,
      bytes: Buffer.byteLength(JSON.stringify(template, undefined, 1)),
      parameters: Object.keys(template.Parameters ?? {}).length,
      outputs: Object.keys(template.Outputs ?? {}).length,
    };
  });
}

describe.each(Object.entries(DEPLOY_VARIANTS))('the %s deployment', (_variant, context) => {
  const measured = measure(context);

  it('is split into the root stack and its nested stacks by area', () => {
    expect(measured.map((m) => m.stack.split('/').slice(1).join('/') || 'root')).toEqual([
      'root',
      'Api',
      'PublicRoutes',
      'FormsRoutes',
      'DeliveryRoutes',
      'AccountsRoutes',
      'Workers',
      'Stage',
      'Observability',
    ]);
  });

  it.each(measured.map((m) => [m.stack, m.resources, Math.round(m.bytes / 1024), m] as const))(
    '%s: %i resources, %i KB',
    (stack, _resources, _kilobytes, m) => {
      expect(m.resources, `${stack} resources`).toBeLessThanOrEqual(MAX_RESOURCES);
      expect(m.bytes, `${stack} template bytes`).toBeLessThanOrEqual(MAX_TEMPLATE_BYTES);
      expect(m.parameters, `${stack} parameters`).toBeLessThanOrEqual(MAX_PARAMETERS);
      expect(m.outputs, `${stack} outputs`).toBeLessThanOrEqual(MAX_OUTPUTS);
    },
  );
});
