/**
 * What `npm run admin -- deploy check` reports (docs/deploying.md#before-the-first-deploy):
 * findings, each a sentence about the account, the settings or the Region and
 * a sentence saying what to do. A blocker is something the first `cdk deploy`
 * fails on, or a stack that deploys but cannot send its mail; a warning works
 * but not as a deployer expects; ok says what was checked.
 */

export type Severity = 'blocker' | 'warning' | 'ok';

export const AREAS = [
  'Settings',
  'Lambda',
  'SES account',
  'Sender',
  'Own domain',
  'Region',
] as const;
export type Area = (typeof AREAS)[number];

export interface Finding {
  area: Area;
  /** A stable name (`lambda.reservation`), for scripts reading `--json`. */
  check: string;
  severity: Severity;
  /** What was found, with the numbers. */
  text: string;
  /** What to do about it; empty for most ok findings. */
  action: string;
}

export const finding = (
  area: Area,
  check: string,
  severity: Severity,
  text: string,
  action = '',
): Finding => ({ area, check, severity, text, action });

/** An AWS error as the checks read it: the SDK's exception name, its message and HTTP status. */
export interface AwsError {
  name: string;
  message: string;
  status?: number;
}

/** What one read-only AWS call answered. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: AwsError };

const ACCESS_DENIED = /AccessDenied|UnauthorizedOperation|NotAuthorized/i;

/**
 * A call that failed for a reason no check interprets: the check could not be
 * made. A warning, not a blocker (nothing says the deploy fails), naming the
 * permission when it was refused.
 */
export function couldNotCheck(
  area: Area,
  check: string,
  what: string,
  error: AwsError,
  permission: string,
): Finding {
  const denied = ACCESS_DENIED.test(error.name);
  return finding(
    area,
    check,
    'warning',
    `Could not check ${what}: ${error.name}${error.message ? ` (${error.message})` : ''}.`,
    denied
      ? `Run the check with credentials allowed ${permission}, or check it in the console.`
      : 'Run the check again; if it keeps failing, check it in the console.',
  );
}

export interface Summary {
  blocker: number;
  warning: number;
  ok: number;
}

export function summarize(findings: readonly Finding[]): Summary {
  const summary: Summary = { blocker: 0, warning: 0, ok: 0 };
  for (const { severity } of findings) summary[severity] += 1;
  return summary;
}

/** The command's exit status: 1 when anything blocks the deploy. */
export const exitCodeOf = (findings: readonly Finding[]): 0 | 1 =>
  findings.some((f) => f.severity === 'blocker') ? 1 : 0;

const MARK: Record<Severity, string> = { blocker: 'BLOCKER', warning: 'WARNING', ok: 'ok     ' };

/** One line per finding grouped by area, then the summary: what a person reads. */
export function formatFindings(findings: readonly Finding[], heading: string): string {
  const lines = [heading];
  for (const area of AREAS) {
    const inArea = findings.filter((f) => f.area === area);
    if (inArea.length === 0) continue;
    lines.push('', area);
    for (const f of inArea) {
      lines.push(`  ${MARK[f.severity]}  ${f.text}${f.action ? ` → ${f.action}` : ''}`);
    }
  }
  const { blocker, warning, ok } = summarize(findings);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(
    '',
    `${plural(blocker, 'blocker')}, ${plural(warning, 'warning')}, ${ok} ok: ${
      blocker > 0
        ? 'the first cdk deploy would fail or send no mail; fix the blockers first.'
        : warning > 0
          ? 'nothing blocks a deploy; read the warnings.'
          : 'nothing found against a deploy.'
    }`,
  );
  return `${lines.join('\n')}\n`;
}
