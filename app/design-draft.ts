import type { Form } from './model.ts';

/** The design screen's draft of a form's `design`, every text as typed (docs/forms.md). */
export type DesignDraft = Record<
  'theme' | 'accent' | 'title' | 'description' | 'submitLabel' | 'successMessage',
  string
>;

export const DEFAULT_ACCENT = '#2563eb';
export const DEFAULT_SUCCESS_MESSAGE = 'Your submission has been received.';

const TEXTS = ['accent', 'title', 'description', 'submitLabel', 'successMessage'] as const;

export function draftOf(form: Pick<Form, 'design'>): DesignDraft {
  const design = form.design as Partial<Record<keyof DesignDraft, string>>;
  return {
    theme: design.theme ?? 'auto',
    accent: design.accent ?? '',
    title: design.title ?? '',
    description: design.description ?? '',
    submitLabel: design.submitLabel ?? '',
    successMessage: design.successMessage ?? '',
  };
}

/**
 * The `design` to save: the theme, and each text that is typed or was saved
 * before (an emptied one is sent empty so the saved one goes; one never set
 * and still empty is left out).
 */
export function designToSave(draft: DesignDraft, saved: Form['design']): Record<string, string> {
  const design: Record<string, string> = { theme: draft.theme };
  for (const key of TEXTS) {
    if (draft[key].trim() !== '' || (saved as Record<string, unknown>)[key] !== undefined) {
      design[key] = draft[key];
    }
  }
  return design;
}
