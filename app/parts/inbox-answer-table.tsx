import type { ComponentChildren, RefObject } from 'preact';
import { type AnswerColumn, cellWords } from '../inbox-columns.ts';
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
 * Submissions as a table, a column per question the owner chose
 * (docs/dashboard.md#the-table-view): the same selection, star, keys and
 * links as the rows (`inbox-table.tsx`), each answer cut short. The first
 * column's answer (or, with no column chosen, the time) is the row's link,
 * which the keys move between. Wider than a phone: it scrolls sideways in a
 * region of its own, which the keyboard can reach.
 */
export function AnswerTable(props: {
  caption: string;
  items: Submission[];
  fields: FieldDefinition[] | null;
  columns: readonly AnswerColumn[];
  selection: Selection;
  focused: number | undefined;
  rows: RefObject<HTMLTableSectionElement | null>;
  hrefOf: (submission: Submission) => string;
  onStar: (submission: Submission) => void;
}) {
  const { items, selection, columns } = props;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must take focus (WCAG 2.1.1)
    <section class="table-scroll" aria-label={props.caption} tabIndex={0}>
      <table class="submissions answers">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <SelectAndStarHeads items={items} selection={selection} />
            {columns.map((column) => (
              <th scope="col" key={column.id}>
                {column.label}
              </th>
            ))}
            <th scope="col">Received</th>
          </tr>
        </thead>
        <tbody ref={props.rows}>
          {items.map((submission, index) => (
            <Row
              key={submission.id}
              submission={submission}
              fields={props.fields}
              columns={columns}
              href={props.hrefOf(submission)}
              selected={selection.has(submission.id)}
              focused={props.focused === index}
              onToggle={(range) => selection.toggle(index, range)}
              onStar={() => props.onStar(submission)}
            />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Row(props: {
  submission: Submission;
  fields: FieldDefinition[] | null;
  columns: readonly AnswerColumn[];
  href: string;
  selected: boolean;
  focused: boolean;
  onToggle: (range: boolean) => void;
  onStar: () => void;
}) {
  const { submission, columns } = props;
  const name = rowName(rowWords(submission, props.fields));
  const link = (children: ComponentChildren) => (
    <SubmissionLink submission={submission} href={props.href}>
      {children}
    </SubmissionLink>
  );
  const when = <RowTime submission={submission} />;
  return (
    <tr class={rowClass(submission, props.focused)} aria-selected={props.selected}>
      <SelectAndStarCells
        submission={submission}
        name={name}
        selected={props.selected}
        onToggle={props.onToggle}
        onStar={props.onStar}
      />
      {columns.map((column, index) => {
        const words = cellWords(submission, column, props.fields);
        return (
          <td key={column.id} class={column.field?.type === 'textarea' ? 'answer long' : 'answer'}>
            {index === 0 ? link(words || '(no answer)') : words}
          </td>
        );
      })}
      <td class="received">
        {columns.length === 0 ? link(when) : when}
        <RowChips submission={submission} />
      </td>
    </tr>
  );
}
