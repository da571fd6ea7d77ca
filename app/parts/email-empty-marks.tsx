import type { ComponentChildren } from 'preact';
import { type PlaceholderKind, placeholdersIn } from '#domain/email-placeholders.ts';
import { paths } from '../paths.ts';
import { Link } from './link.tsx';

/**
 * The placeholders of `kind` in the saved texts, each marked with where it
 * is: those the real email fills with nothing (docs/delivery.md#placeholders),
 * which the sample would not show otherwise. Nothing when there are none.
 */
export function EmailEmptyMarks(props: {
  texts: readonly (readonly [string, string | null])[];
  kind: PlaceholderKind;
  formId: string;
  children: ComponentChildren;
}) {
  const found = props.texts.flatMap(([where, text]) =>
    placeholdersIn(text ?? '')
      .filter((use) => use.kind === props.kind)
      .map((use) => ({ where, written: use.written })),
  );
  if (found.length === 0) return null;
  return (
    <p class="empty-placeholders">
      {props.children}{' '}
      {found.map((use, i) => (
        <span key={`${use.where}-${use.written}-${i}`}>
          {i > 0 && ', '}
          <mark>{use.written}</mark> in the {use.where}
        </span>
      ))}
      . <Link to={paths.formTab(props.formId, 'settings')}>Change in Settings</Link>.
    </p>
  );
}
