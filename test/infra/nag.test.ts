import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { everyAccessRoutes } from './route-fixtures.ts';
import { buildApp, synthesize } from './synthesize.ts';
import { probeWorkers } from './worker-fixtures.ts';

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
}

function findings(app: App): string[] {
  return new AwsSolutionsChecks()
    .validateScope(app)
    .violations.flatMap((violation) =>
      violation.violatingResources.map(
        (resource) =>
          `${violation.ruleName} (${violation.severity}) at ${resource.constructPath}: ${violation.description}`,
      ),
    );
}

function acknowledgements(app: App): Acknowledgement[] {
  return app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

const variants = [
  ['the deployed route table', {}],
  [
    'every access kind, every worker trigger, streaming and tracing',
    {
      routes: everyAccessRoutes,
      workers: probeWorkers,
      // The probes ride on the whole real stack (425 resources) and are never deployed: past
      // CloudFormation's 500 they would stop synthesis, not a deployment. The deployed table's
      // own count is the first variant's (default limit 500).
      context: { tracing: true, '@aws-cdk/core:stackResourceLimit': 600 },
    },
  ],
  [
    'the own-domain settings (SES identity, custom domain, hosted zone)',
    {
      context: {
        emailDomain: 'acme.test',
        emailSenderAddress: 'forms@acme.test',
        domainName: 'forms.acme.test',
        hostedZoneId: 'Z0123456789ABCDEFGHIJ',
        hostedZoneName: 'acme.test',
      },
    },
  ],
] as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(variants)('cdk-nag AwsSolutions on %s', (_label, options) => {
  it('reports no unacknowledged finding (errors or warnings)', () => {
    const { app } = synthesize(options);
    expect(findings(app), 'unacknowledged cdk-nag findings').toEqual([]);
  });

  it('every acknowledgement gives a real reason', () => {
    const { app } = synthesize(options);
    const weak = acknowledgements(app).filter((ack) => ack.reason.trim().length < 40);
    expect(weak, 'acknowledgements need a reason a reviewer can check').toEqual([]);
  });

  it('every acknowledgement still matches a finding it silences', () => {
    const acknowledged = acknowledgements(synthesize(options).app);
    expect(acknowledged.length, 'expected some acknowledgements').toBeGreaterThan(0);

    // The same app with acknowledgements ignored shows what each one hides.
    vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => undefined);
    const raw = new AwsSolutionsChecks().validateScope(buildApp(options).app).violations;

    const stale = acknowledged.filter(
      (ack) =>
        !raw.some(
          (violation) =>
            violation.ruleName === ack.id &&
            violation.violatingResources.some(
              (r) => r.constructPath === ack.path || r.constructPath?.startsWith(`${ack.path}/`),
            ),
        ),
    );
    expect(
      stale.map((ack) => `${ack.id} at ${ack.path}`),
      'acknowledgements that silence nothing (remove them, or the finding id changed)',
    ).toEqual([]);
  });
});
