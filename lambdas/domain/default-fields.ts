import type { FieldDefinition } from './form-model.ts';

/**
 * The fields drawn for a form without definitions (any field is accepted):
 * on the hosted page, the embed and the dashboard's HTML form. A module of
 * its own so the dashboard's first screens take it without the submit rules.
 */
export const DEFAULT_FIELDS: readonly FieldDefinition[] = [
  { id: 'name', type: 'text', label: 'Name', required: false },
  { id: 'email', type: 'email', label: 'Email', required: true },
  { id: 'message', type: 'textarea', label: 'Message', required: true },
];
