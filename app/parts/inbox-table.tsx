import type { RefObject } from 'preact';
import { rowName, rowWords } from '../inbox-model.ts';
import type { FieldDefinition, Submission } from '../model.ts';
import {
  RowChips,
  RowTime,
  rowClass,
  SelectAndStarCells,
  SelectAndStarHeads,
  SubmissionLink,
} from './inbox-row-parts.tsx';
import type { Selection } from './inbox-selection.ts';

/**
 * Submissions as rows that say who and what (docs/dashboard.md#the-inbox):
 * the inbox's page and the search's matches alike.
 */
export function SubmissionTable(props: {
  caption: string;
  items: Submission[];
  fields: FieldDefinition[] | null;
  selection: Selection;
  focused: number | undefined;
  rows: RefObject<HTMLTableSectionElement | null>;
  hrefOf: (submission: Submission) => string;
  onStar: (submission: Submission) => void;
}) {
  const { items, selection } = props;
  return (
    <table class="submissions">
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <SelectAndStarHeads items={items} selection={selection} />
          <th scope="col">Submission</th>
        </tr>
      </thead>
      <tbody ref={props.rows}>
        {items.map((submission, index) => (
          <Row
            key={submission.id}
            submission={submission}
            fields={props.fields}
            href={props.hrefOf(submission)}
            selected={selection.has(submission.id)}
            focused={props.focused === index}
            onToggle={(range) => selection.toggle(index, range)}
            onStar={() => props.onStar(submission)}
          />
        ))}
      </tbody>
    </table>
  );
}

function Row(props: {
  submission: Submission;
  fields: FieldDefinition[] | null;
  href: string;
  selected: boolean;
  focused: boolean;
  onToggle: (range: boolean) => void;
  onStar: () => void;
}) {
  const { submission } = props;
  const words = rowWords(submission, props.fields);
  const { sender, who, what } = words;
  const preview = (
    <SubmissionLink submission={submission} href={props.href}>
      {what}
    </SubmissionLink>
  );
  return (
    <tr class={rowClass(submission, props.focused)} aria-selected={props.selected}>
      <SelectAndStarCells
        submission={submission}
        name={rowName(words)}
        selected={props.selected}
        onToggle={props.onToggle}
        onStar={props.onStar}
      />
      <td class="summary">
        {/* Without a name or email the answers head the row: they say what each one is. */}
        <div class={who ? 'row-head' : 'row-head answers-first'}>
          {who ? (
            <span class="from">
              {sender.name && <span class="name">{sender.name}</span>}
              {sender.email && <span class="email">{sender.email}</span>}
            </span>
          ) : (
            preview
          )}
          <RowTime submission={submission} />
        </div>
        {who && preview}
        <RowChips submission={submission} />
      </td>
    </tr>
  );
}
