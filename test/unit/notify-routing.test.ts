import { describe, expect, it } from 'vitest';
import { notificationRecipients } from '#domain/email-messages.ts';
import { notifyNote } from '#domain/form-audit.ts';
import type { FieldDefinition, FormRecord, NotifyRule } from '#domain/form-model.ts';
import { routedRecipients } from '#domain/notify-routing.ts';

const FIELDS: FieldDefinition[] = [
  { id: 'topic', type: 'select', options: ['Sales', 'Support', 'Press'] },
  { id: 'budget', type: 'number' },
  { id: 'cv', type: 'file' },
];

const RULES: NotifyRule[] = [
  { if: { all: [{ field: 'topic', op: 'eq', value: 'sales' }] }, to: ['sales@example.com'] },
  {
    if: { any: [{ field: 'budget', op: 'gte', value: '10000' }] },
    to: ['boss@example.com', 'SALES@example.com'],
  },
  { if: { all: [{ field: 'cv', op: 'notEmpty' }] }, to: ['jobs@example.com'] },
];

const routed = (data: Record<string, string>, files: { field?: string }[] = []) =>
  routedRecipients(
    { fields: FIELDS, notifyRules: RULES },
    { data, meta: { files: files.map((file) => ({ ...file, name: 'a', mime: 'x/y', size: 1 })) } },
  );

describe('routing by answer', () => {
  it('adds the addresses of every rule that holds, each once whatever its case', () => {
    expect(routed({ topic: ' SALES ', budget: '25000' })).toEqual([
      'sales@example.com',
      'boss@example.com',
    ]);
    expect(routed({ topic: 'Support', budget: '25000' })).toEqual([
      'boss@example.com',
      'SALES@example.com',
    ]);
    expect(routed({}, [{ field: 'cv' }])).toEqual(['jobs@example.com']);
  });

  it('routes nowhere when no rule holds, or the form has none', () => {
    expect(routed({ topic: 'Press', budget: '9999' })).toEqual([]);
    expect(
      routedRecipients({ fields: FIELDS, notifyRules: [] }, { data: { topic: 'Sales' }, meta: {} }),
    ).toEqual([]);
  });

  it('sends to the routed addresses instead of notifyEmail, notifyCc still copied (Pro)', () => {
    const form = {
      notifyEmail: 'desk@example.com',
      notifyCc: ['cc@example.com', 'boss@example.com'],
    };
    const team = { plan: 'pro' as const, ownerEmail: 'owner@example.com' };
    expect(notificationRecipients(form, team, ['sales@example.com', 'boss@example.com'])).toEqual({
      to: 'sales@example.com',
      cc: ['boss@example.com', 'cc@example.com'],
    });
    expect(notificationRecipients(form, team, [])).toEqual({
      to: 'desk@example.com',
      cc: ['cc@example.com', 'boss@example.com'],
    });
    // A team back on Free mails its owner alone, as before.
    expect(notificationRecipients(form, { ...team, plan: 'free' }, ['sales@example.com'])).toEqual({
      to: 'owner@example.com',
      cc: [],
    });
  });
});

describe('the audit of where notifications go', () => {
  const notificationChange = (a: Partial<FormRecord>, b: Partial<FormRecord>) =>
    notifyNote(a as FormRecord, b as FormRecord)?.details;
  const before = { notifyEmail: 'desk@example.com', notifyCc: [], notifyRules: [] };

  it('records a change of the routing rules with every address they name', () => {
    expect(notificationChange(before, { ...before, notifyRules: RULES })).toEqual({
      notifyEmail: 'desk@example.com',
      previous: 'desk@example.com',
      notifyRules: 3,
      routedTo: 'sales@example.com, boss@example.com, SALES@example.com, jobs@example.com',
      previousRoutedTo: '',
    });
    // A condition changed: who reads which answers changes too.
    const changed = RULES.map((rule, index) =>
      index === 0
        ? { ...rule, if: { all: [{ field: 'topic', op: 'eq' as const, value: 'Press' }] } }
        : rule,
    );
    expect(
      notificationChange({ ...before, notifyRules: RULES }, { ...before, notifyRules: changed }),
    ).toMatchObject({ notifyRules: 3 });
  });

  it('records nothing when nothing changed, and the address change as before', () => {
    expect(notificationChange(before, { ...before })).toBeUndefined();
    expect(notificationChange(before, { ...before, notifyEmail: 'new@example.com' })).toEqual({
      notifyEmail: 'new@example.com',
      previous: 'desk@example.com',
    });
  });
});
