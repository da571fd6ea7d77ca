import { describe, expect, it } from 'vitest';
import {
  groupDraftOf,
  groupOf,
  type LogicFieldView,
  newCondition,
  operatorWords,
} from '#app/logic-model.ts';
import { ruleWords } from '#app/parts/email-routing.tsx';

const plan: LogicFieldView = {
  key: 'k-plan',
  id: 'plan',
  type: 'select',
  name: 'Plan',
  options: ['Free', 'Team'],
};

describe('the logic menus', () => {
  it('say each test in words by the type it reads', () => {
    expect(operatorWords('gte', 'number')).toBe('is at least');
    expect(operatorWords('gt', 'date')).toBe('is after');
    expect(operatorWords('notEmpty', 'checkbox')).toBe('is ticked');
    expect(operatorWords('empty', 'file')).toBe('has no file');
    expect(operatorWords('notIn', 'radio')).toBe('is none of');
  });

  it('a new condition reads the field given, with its first test and first option', () => {
    expect(newCondition(plan)).toMatchObject({ field: 'k-plan', op: 'eq', value: ['Free'] });
    expect(newCondition({ ...plan, type: 'number', options: [] })).toMatchObject({
      op: 'gt',
      value: [],
    });
  });

  it('a group read and written back is the same; a field no longer in the form keeps its id', () => {
    const group = {
      any: [
        { field: 'plan', op: 'in' as const, value: ['Team'] },
        { field: 'gone', op: 'notEmpty' as const },
        { field: 'plan', op: 'eq' as const, value: 'Free' },
      ],
    };
    const keys: Record<string, string> = { plan: 'k-plan' };
    const draft = groupDraftOf(group, (id) => keys[id])!;
    expect(draft.conditions.map((each) => each.field)).toEqual(['k-plan', '?gone', 'k-plan']);
    expect(groupOf(draft, (key) => (key === 'k-plan' ? 'plan' : key))).toEqual(group);
    // Renamed: every condition follows.
    expect(groupOf(draft, () => 'tier')).toEqual({
      any: [
        { field: 'tier', op: 'in', value: ['Team'] },
        { field: 'gone', op: 'notEmpty' },
        { field: 'tier', op: 'eq', value: 'Free' },
      ],
    });
  });

  it('a routing rule in words on the Emails screen', () => {
    expect(
      ruleWords(
        {
          if: { all: [{ field: 'plan', op: 'in', value: ['Team', 'Free'] }] },
          to: ['sales@example.com', 'boss@example.com'],
        },
        [plan],
      ),
    ).toBe('When “Plan” is one of “Team” or “Free”: sales@example.com, boss@example.com');
  });
});
