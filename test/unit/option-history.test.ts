import { describe, expect, it } from 'vitest';
import { fieldsInput } from '#domain/field-definitions.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import { MAX_FORMER_OPTIONS, withOptionHistory } from '#domain/option-history.ts';

/** A choice field's history of options taken out (docs/forms.md#changing-options). */

const radio = (
  options: string[],
  formerOptions?: Record<string, string | null>,
): FieldDefinition => ({
  id: 'service',
  type: 'radio',
  label: 'Service',
  options,
  ...(formerOptions ? { formerOptions } : {}),
});
const saved = (before: FieldDefinition, after: FieldDefinition) =>
  withOptionHistory([before], [after])![0]!;

describe('withOptionHistory', () => {
  it('an option taken out is kept apart by its words; a rename sent with the fields counts under the new words', () => {
    const before = radio(['Deep clean', 'Regular', 'Windows']);
    expect(saved(before, radio(['Deep cleaning', 'Regular'])).formerOptions).toEqual({
      'Deep clean': null,
      Windows: null,
    });
    expect(
      saved(before, radio(['Deep cleaning', 'Regular'], { 'Deep clean': 'Deep cleaning' }))
        .formerOptions,
    ).toEqual({ 'Deep clean': 'Deep cleaning', Windows: null });
  });

  it('keeps what it knew; a rename of a renamed option carries the older words along', () => {
    const first = radio(['Deep cleaning', 'Regular'], { 'Deep clean': 'Deep cleaning' });
    expect(
      saved(first, radio(['Deep clean plus', 'Regular'], { 'Deep cleaning': 'Deep clean plus' }))
        .formerOptions,
    ).toEqual({ 'Deep clean': 'Deep clean plus', 'Deep cleaning': 'Deep clean plus' });
    // Taken out without a rename: those counted under it are kept apart by their own words.
    expect(saved(first, radio(['Regular'])).formerOptions).toEqual({
      'Deep clean': null,
      'Deep cleaning': null,
    });
  });

  it('an option back again is no longer former; a field that is not a choice keeps none', () => {
    const first = radio(['Deep cleaning'], { 'Deep clean': 'Deep cleaning' });
    expect(saved(first, radio(['Deep cleaning', 'deep clean'])).formerOptions).toBeUndefined();
    expect(
      saved(first, { id: 'service', type: 'text', label: 'Service' } as FieldDefinition),
    ).not.toHaveProperty('formerOptions');
    // A field new to the form keeps what it was sent.
    expect(withOptionHistory([], [radio(['A'], { B: 'A' })])![0]!.formerOptions).toEqual({
      B: 'A',
    });
  });

  it(`keeps at most ${MAX_FORMER_OPTIONS}, dropping the oldest kept apart first`, () => {
    const many = Array.from({ length: MAX_FORMER_OPTIONS }, (_, i) => `Old ${i}`);
    const before = radio(['New'], {
      Renamed: 'New',
      ...Object.fromEntries(many.map((w) => [w, null])),
    });
    const after = saved(before, radio(['Newer'], { New: 'Newer' }));
    expect(Object.keys(after.formerOptions!)).toHaveLength(MAX_FORMER_OPTIONS);
    expect(after.formerOptions).toMatchObject({ Renamed: 'Newer', New: 'Newer' });
    expect(after.formerOptions).not.toHaveProperty('Old 0');
  });
});

describe('formerOptions in a field definition', () => {
  const parse = (formerOptions: unknown) =>
    fieldsInput.safeParse([{ id: 'service', type: 'select', options: ['A', 'B'], formerOptions }]);

  it('takes old words → an option now, or null', () => {
    expect(parse({ 'Old A': 'A', Gone: null }).success).toBe(true);
  });

  it('refuses a rename to words that are not an option, and a former option that is one now', () => {
    const notAnOption = parse({ 'Old A': 'C' });
    expect(notAnOption.success).toBe(false);
    expect(notAnOption.error?.issues[0]?.path).toEqual([0, 'formerOptions', 'Old A']);
    expect(parse({ ' a ': null }).success).toBe(false);
  });

  it('is only for select and radio fields', () => {
    const text = fieldsInput.safeParse([{ id: 't', type: 'text', formerOptions: { A: null } }]);
    expect(text.success).toBe(false);
  });
});
