import { STACK_SETTINGS } from '#lib/settings.ts';
import { flag, type Parser, parseWith, SETTINGS, wholeNumber } from '#settings';
import { type Finding, finding } from './findings.ts';

/**
 * The settings a deploy check needs, read the way `cdk deploy` hands them to
 * the stack: CDK context merged as the CDK CLI merges it (`-c key=value` over
 * cdk.json's `context` over cdk.context.json over ~/.cdk.json), each value
 * parsed by its own definition in lib/settings.ts or lambdas/settings.ts,
 * found by name, with the definition's default when the context is silent.
 */
export interface DeploySettings {
  stackName: string;
  /** 0: no reservation. */
  submitReservedConcurrency: number;
  /** `null` when the deployer set none: the stack refuses to synth without one. */
  emailSenderAddress: string | null;
  sesIdentity: string;
  emailDomain: string;
  sesTenants: boolean;
  domainName: string;
  hostedZoneId: string;
  hostedZoneName: string;
  certificateArn: string;
  baseUrl: string;
  /** `guardduty` or `off` (docs/uploads-and-pages.md#malware-scanning). */
  malwareScanning: string;
}

/** Context layers, highest precedence first, as the CDK CLI reads them. */
export interface ContextLayers {
  /** `-c key=value` (values are strings, as the CLI passes them). */
  commandLine: Record<string, unknown>;
  /** cdk.json's `context`. */
  cdkJson: Record<string, unknown>;
  /** cdk.context.json. */
  projectContext: Record<string, unknown>;
  /** ~/.cdk.json's `context`. */
  userContext: Record<string, unknown>;
}

export function mergeContext(layers: ContextLayers): Record<string, unknown> {
  return {
    ...layers.userContext,
    ...layers.projectContext,
    ...layers.cdkJson,
    ...layers.commandLine,
  };
}

interface Definition<T> {
  default: T;
  parse: Parser<T>;
}

const DEFINED: Record<string, Definition<unknown>> = { ...SETTINGS, ...STACK_SETTINGS };

const text: Parser<string> = (raw) => raw.trim();

/**
 * Where this check runs ahead of the stack: a setting the stack does not
 * declare (yet) is read with this fallback, which says what the stack does
 * without it. Every key here is declared by now (`malwareScanning` in
 * lambdas/settings.ts), so these only type the settings the check reads.
 */
const FALLBACKS: { [K in keyof DeploySettings]: Definition<DeploySettings[K]> } = {
  stackName: { default: 'FormService', parse: text },
  submitReservedConcurrency: {
    default: 0,
    parse: (raw) => (raw.trim() === '' ? 0 : wholeNumber(0)(raw)),
  },
  emailSenderAddress: { default: null, parse: text },
  sesIdentity: { default: '', parse: text },
  emailDomain: { default: '', parse: (raw) => raw.trim().toLowerCase().replace(/\.$/, '') },
  sesTenants: { default: true, parse: flag },
  domainName: { default: '', parse: (raw) => raw.trim().toLowerCase().replace(/\.$/, '') },
  hostedZoneId: { default: '', parse: text },
  hostedZoneName: { default: '', parse: (raw) => raw.trim().toLowerCase().replace(/\.$/, '') },
  certificateArn: { default: '', parse: text },
  baseUrl: { default: '', parse: text },
  malwareScanning: { default: 'guardduty', parse: text },
};

/**
 * The settings, and a Settings blocker for each value the synth would stop on
 * (that setting then reads as its default, so the other checks still run).
 */
export function readDeploySettings(context: Record<string, unknown>): {
  settings: DeploySettings;
  findings: Finding[];
} {
  const findings: Finding[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(FALLBACKS) as [string, Definition<unknown>][]) {
    const definition = DEFINED[key] ?? fallback;
    const raw = context[key];
    const given = raw !== undefined && raw !== null;
    if (key === 'emailSenderAddress' && (!given || String(raw).trim() === '')) {
      // Only what the deployer set counts: the stack's default is a local stand-in.
      values[key] = null;
      continue;
    }
    try {
      values[key] = given
        ? parseWith(definition.parse, String(raw), `CDK context "${key}"`)
        : definition.default;
    } catch (error) {
      values[key] = definition.default;
      findings.push(
        finding(
          'Settings',
          `settings.${key}`,
          'blocker',
          `${(error as Error).message}: the synth stops on it.`,
          `Fix ${key} in cdk.json or the -c option.`,
        ),
      );
    }
  }
  return { settings: values as unknown as DeploySettings, findings };
}
