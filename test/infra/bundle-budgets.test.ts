/**
 * Bundle budgets (issue 14): every function of the stack (each route or
 * group of routes, the fallback, each worker), bundled with the stack's esbuild flags, stays
 * within 10 % of its budget in bundle-budgets.json (bytes, minified, no
 * source map). A function without a budget fails, so a new route or worker
 * adds its measured size (`npm run bench:bundles` prints them); a budget
 * whose function is gone fails too. When a function shrinks for good, lower
 * its budget; raise one only with the reason in the commit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fallbackRoute, routeFunctions } from '#routes';
import { bundleSizes } from '#test/bench/bundle.ts';
import { workers } from '#workers';

const GROWTH_ALLOWED = 1.1;

const budgets: Record<string, number> = JSON.parse(
  readFileSync(new URL('./bundle-budgets.json', import.meta.url), 'utf8'),
);
const functions = [...routeFunctions(), fallbackRoute, ...workers];
const sizes = await bundleSizes(Object.fromEntries(functions.map((f) => [f.name, f.handler])));

describe('bundle budgets', () => {
  it('bundles every function', () => {
    expect(Object.keys(sizes).sort()).toEqual(functions.map((f) => f.name).sort());
  });

  it('every function has a budget, and every budget names a function', () => {
    const names = new Set(functions.map((f) => f.name));
    const unbudgeted = functions.map((f) => f.name).filter((name) => !(name in budgets));
    expect(unbudgeted, 'functions without a budget in bundle-budgets.json').toEqual([]);
    const stale = Object.keys(budgets).filter((name) => !names.has(name));
    expect(stale, 'budgets of functions the stack no longer has').toEqual([]);
  });

  it('no function grows more than 10 % over its budget', () => {
    const over = functions
      .filter((f) => f.name in budgets && sizes[f.name]! > budgets[f.name]! * GROWTH_ALLOWED)
      .map(
        (f) =>
          `${f.name}: ${sizes[f.name]} bytes, budget ${budgets[f.name]} (+${(
            (100 * sizes[f.name]!) / budgets[f.name]! - 100
          ).toFixed(1)} %)`,
      );
    expect(over, 'bundles more than 10 % over budget').toEqual([]);
  });
});
