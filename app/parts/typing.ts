/** Inputs whose keys are text: a shortcut letter typed there is meant as a letter. */
const TEXT_INPUTS = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'week',
  'time',
]);

/**
 * Whether a key pressed on `target` is typing, so a single-key shortcut must
 * stand aside: text fields, text areas, lists (letters pick an option) and
 * editable regions. A ticked checkbox, a radio or a button keeps the
 * shortcuts working (the inbox's select boxes are ticked, then acted on).
 */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('textarea, select')) return true;
  return target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type);
}
