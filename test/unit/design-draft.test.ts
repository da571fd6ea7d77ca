import { describe, expect, it } from 'vitest';
import { designToSave, draftOf } from '#app/design-draft.ts';
import { sampleSubmission } from '#app/email-sample.ts';
import type { Form } from '#app/model.ts';

describe('the design draft', () => {
  it('reads a saved design, every text as typed and the theme automatic when unset', () => {
    expect(draftOf({ design: { accent: '#aa00cc' } as Form['design'] })).toEqual({
      theme: 'auto',
      accent: '#aa00cc',
      title: '',
      description: '',
      submitLabel: '',
      successMessage: '',
    });
  });

  it('saves the theme and each text typed or saved before; an emptied one is sent empty, a never-set empty one left out', () => {
    const draft = { ...draftOf({ design: {} as Form['design'] }), title: 'Join', submitLabel: '' };
    expect(designToSave(draft, {} as Form['design'])).toEqual({ theme: 'auto', title: 'Join' });
    expect(designToSave(draft, { submitLabel: 'Go' } as Form['design'])).toEqual({
      theme: 'auto',
      title: 'Join',
      submitLabel: '',
    });
  });
});

describe('the emails screen’s sample submission', () => {
  it('answers each field as a visitor might, files left out, the first choice of a list', () => {
    const form = {
      id: 'f1',
      fields: [
        { id: 'email', type: 'email', label: 'Email' },
        { id: 'size', type: 'select', label: 'Size', options: ['S', 'M'] },
        { id: 'cv', type: 'file', label: 'CV' },
        { id: 'name', type: 'text', label: 'Name' },
      ],
    } as unknown as Form;
    expect(sampleSubmission(form).data).toEqual({
      email: 'ada@example.com',
      size: 'S',
      name: 'Ada Lovelace',
    });
  });
});
