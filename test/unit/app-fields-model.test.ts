import { describe, expect, it } from 'vitest';
import {
  checkFields,
  definitionOf,
  draftOfField,
  emptyField,
  type FieldDraft,
  fieldProblemsFromApi,
  fileFieldProblems,
  filesNote,
  formerOptionsOf,
  optionsTakenOut,
  savingTurnsFilesOn,
  summaryLine,
} from '#app/fields-model.ts';

const draft = (patch: Partial<FieldDraft>): FieldDraft => ({
  ...emptyField(),
  idEdited: true,
  ...patch,
});

const TECHNICAL = /Too (small|big)|expected|>=|<=|minLength|maxLength|\bmin\b|\bmax\b/;

describe('fields model: drafts → the PATCH’s fields', () => {
  it('options one a line, blank lines skipped; only the properties of the type', () => {
    expect(
      definitionOf(
        draft({ id: 'plan', type: 'select', options: ' Gold \n\nSilver\n', minLength: '3' }),
      ),
    ).toEqual({ id: 'plan', type: 'select', options: ['Gold', 'Silver'] });
    expect(definitionOf(draft({ id: 'n', type: 'number', min: '1', max: '' }))).toEqual({
      id: 'n',
      type: 'number',
      min: 1,
    });
  });

  it('a rating from 0 is read back and saved as such', () => {
    const read = draftOfField({ id: 'nps', type: 'rating', min: 0, max: 10 });
    expect([read.ratingMin, read.stars]).toEqual(['0', '10']);
    expect(definitionOf(read)).toEqual({ id: 'nps', type: 'rating', max: 10, min: 0 });
  });

  it('a collapsed card says the type in words and whether it is required', () => {
    expect(summaryLine(draft({ type: 'textarea', required: true }))).toBe('Long text, required');
    expect(summaryLine(draft({ type: 'select' }))).toBe('Drop-down list, optional');
  });
});

describe('fields model: refusals in words', () => {
  it('a bad option is named by its field and its line, blank lines counted', () => {
    const drafts = [
      draft({ id: 'name', label: 'Name' }),
      draft({ id: 'plan', label: 'Plan', type: 'select', options: 'Gold\n\nSilver\nGold' }),
    ];
    const { problems } = checkFields(drafts);
    expect(problems).toEqual([
      {
        key: drafts[1]!.key,
        property: 'options',
        control: `${drafts[1]!.key}-options`,
        line: 4,
        text: 'Line 4: “Gold” is listed twice',
        summary: 'Field 2 (Plan), options, line 4: “Gold” is listed twice',
      },
    ]);
  });

  it('bounds and cross-checks in plain sentences, never schema text', () => {
    const cases: [Partial<FieldDraft>, string][] = [
      [
        { type: 'select', options: '' },
        'Field 1 (Plan), options: needs at least one of the options',
      ],
      [
        { type: 'number', min: '10', max: '5' },
        'Field 1 (Plan), smallest: must not be more than the largest number',
      ],
      [
        { type: 'text', minLength: '9', maxLength: '3' },
        'Field 1 (Plan), shortest answer: must not be more than the longest answer',
      ],
      [{ type: 'rating', stars: '11' }, 'Field 1 (Plan), stars: must be 10 or less'],
      [
        { type: 'text', pattern: '(a+)+' },
        'Field 1 (Plan), pattern: could take exponential time to match (nested or too many repetitions)',
      ],
      [
        { id: '', label: '' },
        'Field 1 (field 1), id: must start with a letter and use only letters, digits, - and _ (up to 64)',
      ],
    ];
    for (const [patch, sentence] of cases) {
      const summaries = checkFields([draft({ id: 'plan', label: 'Plan', ...patch })]).problems.map(
        (problem) => problem.summary,
      );
      expect(summaries[0]).toBe(sentence);
      for (const summary of summaries) expect(summary).not.toMatch(TECHNICAL);
    }
  });

  it('two fields with one id: said at the second', () => {
    const drafts = [
      draft({ id: 'email', label: 'Email' }),
      draft({ id: 'email', label: 'Work email' }),
    ];
    expect(checkFields(drafts).problems.map((problem) => problem.summary)).toEqual([
      'Field 2 (Work email), id: another field already has the id “email”',
    ]);
  });

  it('the route’s 400 issues (fields.N.property) too', () => {
    const drafts = [draft({ id: 'plan', label: 'Plan', type: 'select', options: 'A\nB' })];
    const [problem] = fieldProblemsFromApi(drafts, [
      {
        path: 'fields.0.options',
        code: 'too_small',
        message: 'Too small: expected array to have >=1 items',
      },
    ]);
    expect(problem!.summary).toBe('Field 1 (Plan), options: needs at least one of the options');
    const [whole] = fieldProblemsFromApi(drafts, [
      { path: 'fields', code: 'too_big', message: 'Too big: expected array to have <=30 items' },
    ]);
    expect(whole).toMatchObject({
      control: 'fields-add',
      summary: 'Fields: can have at most 30 fields',
    });
  });
});

describe('fields model: a file field on a form that does not accept files (docs/forms.md#file-fields)', () => {
  const cv = draft({ id: 'cv', type: 'file', label: 'CV', required: true });
  const name = draft({ id: 'name', type: 'text', label: 'Name' });
  const pro = { allowUploads: false, uploadLimitMb: 10, plan: 'pro' as const };
  const free = { ...pro, plan: 'free' as const };

  it('on Pro, says that saving turns accepting files on, and the save does', () => {
    expect(filesNote(pro)).toBe(
      'Saving turns on accepting files for this form (Settings, Uploads): visitors attach files of up to 10 MB.',
    );
    expect(savingTurnsFilesOn([name, cv], pro)).toBe(true);
    expect(savingTurnsFilesOn([name], pro)).toBe(false);
    expect(fileFieldProblems([name, cv], pro)).toEqual([]);
  });

  it('on Free, says it cannot be saved, and refuses it at its type', () => {
    expect(filesNote(free)).toMatch(/^Files need the Pro plan/);
    expect(savingTurnsFilesOn([cv], free)).toBe(false);
    expect(fileFieldProblems([name, cv], free)).toEqual([
      expect.objectContaining({
        key: cv.key,
        property: 'type',
        control: `${cv.key}-type`,
        summary: 'Field 2 (CV), type: files need the Pro plan: this form cannot accept files.',
      }),
    ]);
  });

  it('says nothing once the form accepts files', () => {
    expect(filesNote({ ...pro, allowUploads: true })).toBeUndefined();
    expect(savingTurnsFilesOn([cv], { ...pro, allowUploads: true })).toBe(false);
    expect(fileFieldProblems([cv], { ...free, allowUploads: true })).toEqual([]);
  });
});

describe('fields model: options taken out, and their answers (docs/forms.md#changing-options)', () => {
  const saved = draftOfField({
    id: 'service',
    type: 'radio',
    label: 'Service',
    options: ['Deep clean', 'Regular', 'Windows'],
    formerOptions: { Spring: 'Deep clean' },
  });

  it('an option edited on its line is taken for a rename; one removed is kept apart', () => {
    const edited = { ...saved, options: 'Deep cleaning\nRegular' };
    expect(optionsTakenOut(edited)).toEqual([
      { words: 'Deep clean', goesTo: 'Deep cleaning', guess: 'Deep cleaning' },
      { words: 'Windows', goesTo: '', guess: '' },
    ]);
    // Sent: the rename, the option kept apart, and the older rename following its option.
    expect(definitionOf(edited).formerOptions).toEqual({
      Spring: 'Deep cleaning',
      'Deep clean': 'Deep cleaning',
      Windows: null,
    });
  });

  it('the person may keep a rename apart, or send its answers to another option', () => {
    const apart = { ...saved, options: 'Deep cleaning\nRegular', carry: { 'Deep clean': '' } };
    expect(formerOptionsOf(apart, ['Deep cleaning', 'Regular'])).toMatchObject({
      'Deep clean': null,
      Spring: null,
    });
    const toRegular = { ...apart, carry: { 'Deep clean': 'Regular' } };
    expect(optionsTakenOut(toRegular)[0]?.goesTo).toBe('Regular');
  });

  it('nothing taken out: the saved history round-trips, so the field is not "unsaved"', () => {
    expect(optionsTakenOut(saved)).toEqual([]);
    expect(definitionOf(saved).formerOptions).toEqual({ Spring: 'Deep clean' });
    // An option back again (in another case) is no longer former.
    expect(
      definitionOf({ ...saved, options: 'Deep clean\nRegular\nWindows\nspring' }),
    ).not.toHaveProperty('formerOptions');
    expect(checkFields([{ ...saved, options: 'Deep cleaning\nRegular' }]).problems).toEqual([]);
  });
});
