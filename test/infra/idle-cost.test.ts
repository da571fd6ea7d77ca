import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resourcesOfType, synthesize } from './synthesize.ts';

/**
 * docs/deploying.md#when-idle states what a deployment costs a month with no
 * traffic; this test counts the same items in the synthesized templates
 * (every stack of the plain shape) with AWS's list prices, so the table
 * cannot drift from what the stack builds.
 */
const PRICES = {
  'alarm metrics': 0.1,
  dashboards: 3,
  'KMS keys': 1,
  'Secrets Manager secrets': 0.4,
} as const;
type Item = keyof typeof PRICES;

const built = synthesize();

function counted(): Record<Item, number> {
  const alarms = Object.values(resourcesOfType(built.all, 'AWS::CloudWatch::Alarm')).map(
    (alarm) => alarm.Properties as { Metrics?: Array<{ MetricStat?: unknown }> },
  );
  return {
    'alarm metrics': alarms.reduce(
      (sum, alarm) => sum + (alarm.Metrics ? alarm.Metrics.filter((m) => m.MetricStat).length : 1),
      0,
    ),
    dashboards: Object.keys(resourcesOfType(built.all, 'AWS::CloudWatch::Dashboard')).length,
    'KMS keys': Object.keys(resourcesOfType(built.all, 'AWS::KMS::Key')).length,
    'Secrets Manager secrets': Object.keys(
      resourcesOfType(built.all, 'AWS::SecretsManager::Secret'),
    ).length,
  };
}

/** The rows of the When idle table: its label's first words, the count, the dollars. */
function documented(): Record<string, { count?: number; dollars: number }> {
  const page = readFileSync(new URL('../../docs/deploying.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('### When idle'));
  const rows: Record<string, { count?: number; dollars: number }> = {};
  for (const match of section.matchAll(/^\| (.+?) \| ?(\d*) ?\| \**\$([\d.]+)\**/gm)) {
    const label = match[1]!.replace(/\*\*/g, '').replace(/ \(.*$/, '');
    rows[label] = { count: match[2] ? Number(match[2]) : undefined, dollars: Number(match[3]) };
  }
  return rows;
}

describe('idle cost (docs/deploying.md#when-idle)', () => {
  const items = counted();
  const rows = documented();

  it.each(Object.keys(PRICES) as Item[])(
    '%s: the count and the dollars are the stack’s',
    (item) => {
      expect(rows[item], `a row for ${item}`).toBeDefined();
      expect(rows[item]!.count, `${item} counted in the templates`).toBe(items[item]);
      expect(rows[item]!.dollars).toBeCloseTo(items[item] * PRICES[item], 2);
    },
  );

  it('the total is the sum of the rows', () => {
    const total = (Object.keys(PRICES) as Item[]).reduce(
      (sum, item) => sum + items[item] * PRICES[item],
      0,
    );
    expect(rows.total?.dollars).toBeCloseTo(total, 2);
  });
});
