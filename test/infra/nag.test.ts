import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEPLOY_VARIANTS } from './deploy-variants.ts';
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

/** The stack with the probe routes and workers: every access kind, every trigger, streaming. */
const PROBES = {
  routes: everyAccessRoutes,
  workers: probeWorkers,
  context: { tracing: true },
} as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(Object.entries(DEPLOY_VARIANTS))(
  'cdk-nag AwsSolutions on the %s deployment',
  (_label, context) => {
    it('reports no unacknowledged finding (errors or warnings)', () => {
      const { app } = synthesize({ context });
      expect(findings(app), 'unacknowledged cdk-nag findings').toEqual([]);
    });
  },
);

const variants = [
  ['the deployed route table', {}],
  ['every access kind, every worker trigger, streaming and tracing', PROBES],
  ['every deployment option at once', { context: DEPLOY_VARIANTS['all-options'] }],
] as const;

/** Each variant synthesized once for its three tests (seconds each); they only read it. */
const synthesized = new Map<object, ReturnType<typeof synthesize>>();
const synthesizeOnce = (options: (typeof variants)[number][1]) => {
  if (!synthesized.has(options)) synthesized.set(options, synthesize(options));
  return synthesized.get(options)!;
};

describe.each(variants)('cdk-nag acknowledgements on %s', (_label, options) => {
  it('reports no unacknowledged finding (errors or warnings)', () => {
    const { app } = synthesizeOnce(options);
    expect(findings(app), 'unacknowledged cdk-nag findings').toEqual([]);
  });

  it('every acknowledgement gives a real reason', () => {
    const { app } = synthesizeOnce(options);
    const weak = acknowledgements(app).filter((ack) => ack.reason.trim().length < 40);
    expect(weak, 'acknowledgements need a reason a reviewer can check').toEqual([]);
  });

  it('every acknowledgement still matches a finding it silences', () => {
    const acknowledged = acknowledgements(synthesizeOnce(options).app);
    expect(acknowledged.length, 'expected some acknowledgements').toBeGreaterThan(0);

    // The same app with acknowledgements ignored shows what each one hides. It is prepared
    // first (its own cdk-nag run, which would now fail, passes over), as a finding names a
    // resource of another stack by the parameter preparing the app makes for it.
    vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => undefined);
    const { app } = buildApp(options);
    const validate = vi
      .spyOn(AwsSolutionsChecks.prototype, 'validate')
      .mockReturnValue({ success: true, violations: [] });
    app.synth();
    validate.mockRestore();
    const raw = new AwsSolutionsChecks().validateScope(app).violations;

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
