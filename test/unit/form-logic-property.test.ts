import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askedAnswers } from '#domain/asked-answers.ts';
import type { Condition, ConditionGroup, FormPage } from '#domain/form-logic.ts';
import * as server from '#domain/form-logic.ts';
import type { FieldDefinition, FieldType } from '#domain/form-model.ts';
import { FIELD_TYPES } from '#domain/form-model.ts';
import { type Rng, random } from '#test/support/seeded-random.ts';

/**
 * The walk the server runs and the walk a browser runs are one module: this
 * bundles lambdas/domain/form-logic.ts for the browser, as the page's script
 * will (esbuild, ESM, minified, the embed's browser targets), imports the
 * bundle, and walks a few hundred random forms with random answers through
 * both. They must agree, and what the submit step keeps must be exactly the
 * answers of the active fields.
 */

const SEED = Number(process.env.LOGIC_SEED ?? 4141);
const FORMS = 300;
const ANSWER_SETS = 8;

let dir: string;
let browser: typeof server;
let bundleBytes = 0;

beforeAll(async () => {
  const built = buildSync({
    entryPoints: [new URL('../../lambdas/domain/form-logic.ts', import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome100', 'firefox101', 'safari16.4'],
    write: false,
    metafile: true,
    legalComments: 'none',
  });
  // Nothing of Node or AWS: the bundle holds the evaluator and the answer values it reads.
  expect(Object.keys(built.metafile.inputs).sort()).toEqual([
    'lambdas/domain/answer-values.ts',
    'lambdas/domain/form-logic.ts',
  ]);
  const text = built.outputFiles[0]!.text;
  bundleBytes = Buffer.byteLength(text);
  dir = mkdtempSync(join(tmpdir(), 'form-logic-'));
  const file = join(dir, 'form-logic.browser.mjs');
  writeFileSync(file, text);
  browser = (await import(pathToFileURL(file).href)) as typeof server;
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const OPTIONS = ['Yes', 'No', 'Maybe later', 'Gold plan', 'Free'];

/** Answers a person (or a script posting by hand) might send for a field of `type`. */
function answerFor(rng: Rng, field: FieldDefinition): string | undefined {
  switch (rng.int(8)) {
    case 0:
      return undefined;
    case 1:
      return rng.pick(['', '   ', '\t']);
    case 2:
      return rng.pick(['junk', '0x10', '1/2/2026', 'NaN', '', 'a,b']);
    default:
      break;
  }
  const option = () => rng.pick(field.options ?? OPTIONS);
  const cased = (text: string) =>
    rng.pick([text, text.toUpperCase(), ` ${text.toLowerCase()}  `, text.replace(' ', '   ')]);
  switch (field.type) {
    case 'select':
    case 'radio':
    case 'hidden':
      return cased(option());
    case 'checkbox':
      return rng.pick(['yes', `${option()},${option()}`]);
    case 'number':
      return rng.pick(['-3', '0', '2.5', '10', '1e2', ' 42 ', '7.0']);
    case 'rating':
      return String(rng.int(11));
    case 'date':
      return rng.pick(['2026-01-01', '2026-02-28', '2024-02-29', '2026-12-31', ' 2025-06-15 ']);
    default:
      return cased(rng.pick(['hello world', 'Urgent request', 'gold', 'ada@example.com']));
  }
}

/** A condition on `field`, usually with an operator and value its type takes. */
function conditionOn(rng: Rng, field: FieldDefinition): Condition {
  const ops = rng.int(10) === 0 ? [...server.CONDITION_OPERATORS] : server.operatorsFor(field.type);
  const op = rng.pick(ops);
  if (op === 'empty' || op === 'notEmpty') return { field: field.id, op };
  if (op === 'in' || op === 'notIn') {
    const values = Array.from({ length: 1 + rng.int(3) }, () => rng.pick(field.options ?? OPTIONS));
    return { field: field.id, op, value: values };
  }
  if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') {
    const value =
      field.type === 'date'
        ? rng.pick(['2025-12-31', '2026-02-28', '2026-06-01'])
        : rng.pick(['0', '2.5', '5', '10', '-1']);
    return { field: field.id, op, value };
  }
  if (op === 'contains') return { field: field.id, op, value: rng.pick(['gold', 'urgent', 'o']) };
  return { field: field.id, op, value: rng.pick(field.options ?? OPTIONS) };
}

/** A group of 1–10 conditions on fields in `earlier` (sometimes on a later one: read as empty). */
function groupOn(rng: Rng, earlier: FieldDefinition[], all: FieldDefinition[]): ConditionGroup {
  const pool = earlier.length > 0 && rng.int(12) > 0 ? earlier : all;
  const conditions = Array.from({ length: 1 + rng.int(rng.int(4) === 0 ? 10 : 3) }, () =>
    conditionOn(rng, rng.pick(pool)),
  );
  return rng.int(2) === 0 ? { all: conditions } : { any: conditions };
}

function randomForm(rng: Rng): { fields: FieldDefinition[]; pages: FormPage[] | null } {
  const count = 1 + rng.int(30);
  const types = FIELD_TYPES.filter((type) => type !== 'file') as FieldType[];
  const fields: FieldDefinition[] = Array.from({ length: count }, (_, i) => {
    const type = rng.int(15) === 0 ? 'file' : rng.pick(types);
    const field: FieldDefinition = { id: `f${i}`, type, required: rng.int(3) === 0 };
    if (type === 'select' || type === 'radio' || (type === 'checkbox' && rng.int(2) === 0)) {
      field.options = OPTIONS.slice(0, 2 + rng.int(4));
    }
    return field;
  });
  // Pages: the fields in a shuffled order, cut into up to 10 pages (or none).
  const order = [...fields];
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const pageCount = rng.int(3) === 0 ? 0 : 1 + rng.int(Math.min(10, count));
  const pages: FormPage[] = [];
  if (pageCount > 0) {
    const cuts = new Set([0]);
    while (cuts.size < pageCount) cuts.add(rng.int(count));
    const starts = [...cuts].sort((a, b) => a - b);
    starts.forEach((start, index) => {
      const end = starts[index + 1] ?? count;
      pages.push({ id: `p${index}`, fields: order.slice(start, end).map((field) => field.id) });
    });
  }
  const walkOrder =
    pages.length > 0
      ? pages.flatMap((page) => page.fields).map((id) => fields[Number(id.slice(1))]!)
      : fields;
  walkOrder.forEach((field, index) => {
    const earlier = walkOrder.slice(0, index);
    if (rng.int(3) === 0) field.showIf = groupOn(rng, earlier, fields);
    if (rng.int(4) === 0) field.requiredIf = groupOn(rng, earlier, fields);
  });
  let seen = 0;
  pages.forEach((page, index) => {
    seen += page.fields.length;
    if (rng.int(2) === 0) return;
    const earlier = walkOrder.slice(0, seen);
    page.next = Array.from({ length: 1 + rng.int(rng.int(3) === 0 ? 10 : 3) }, () => {
      const forward = pages.slice(index + 1).map((each) => each.id);
      // Mostly forward or the end; now and then a backward or unknown page (never taken).
      const goTo =
        rng.int(10) === 0
          ? rng.pick(['p0', 'nowhere', page.id])
          : rng.pick([...forward, server.END]);
      return { if: groupOn(rng, earlier, fields), goTo };
    });
  });
  return { fields, pages: pages.length > 0 ? pages : null };
}

describe('the walk: server and browser bundle agree on random forms', () => {
  it(`agrees on ${FORMS} random forms × ${ANSWER_SETS} answer sets, and keeps exactly the active answers (seed ${SEED})`, () => {
    expect(bundleBytes).toBeGreaterThan(0);
    expect(bundleBytes).toBeLessThan(8_000);
    const rng = random(SEED);
    let skippedPages = 0;
    let dropped = 0;
    for (let n = 0; n < FORMS; n++) {
      const form = randomForm(rng);
      for (let a = 0; a < ANSWER_SETS; a++) {
        const answers: Record<string, string> = {};
        const files: { field: string }[] = [];
        for (const field of form.fields) {
          if (field.type === 'file') {
            if (rng.int(2) === 0) files.push({ field: field.id });
            continue;
          }
          const value = answerFor(rng, field);
          if (value !== undefined) answers[field.id] = value;
        }
        if (rng.int(4) === 0) answers.extra = 'not a field';
        const readable = server.answersWithFiles(answers, files);
        const onServer = server.walk(form, readable);
        const inBrowser = browser.walk(form, readable);
        const context = `seed ${SEED}, form ${n}, answers ${a}: ${JSON.stringify({ form, answers })}`;
        expect(inBrowser, context).toEqual(onServer);

        // What the submit step keeps: the active fields' answers (and names the form lacks).
        const asked = askedAnswers(form, answers, files);
        const active = new Set(onServer.active);
        const expected = Object.fromEntries(
          Object.entries(answers).filter(([name]) => name === 'extra' || active.has(name)),
        );
        expect(asked.data, context).toEqual(expected);
        expect(browser.keptAnswers(form, inBrowser, answers), context).toEqual(expected);
        expect(
          asked.files.map((file) => file.field),
          context,
        ).toEqual(files.filter((file) => active.has(file.field)).map((file) => file.field));
        expect(
          asked.fields?.map((field) => field.id),
          context,
        ).toEqual(form.fields.filter((field) => active.has(field.id)).map((field) => field.id));
        expect(
          asked.fields?.filter((field) => field.required).map((field) => field.id),
          context,
        ).toEqual(
          form.fields.filter((field) => onServer.required.includes(field.id)).map((f) => f.id),
        );
        if (form.pages && onServer.pages.length < form.pages.length) skippedPages++;
        dropped += Object.keys(answers).length - Object.keys(asked.data).length;
      }
    }
    // The generator reaches what it means to test: pages skipped and answers dropped.
    expect(skippedPages).toBeGreaterThan(100);
    expect(dropped).toBeGreaterThan(1000);
  });
});
