import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useAction } from '../data.ts';
import { questionColumns, shownColumns } from '../inbox-columns.ts';
import { submissions } from '../inbox-model.ts';
import { returnedFrom } from '../inbox-return.ts';
import type { InboxView } from '../inbox-view.ts';
import type { FieldDefinition, Folder, SpamReason, Submission } from '../model.ts';
import { Confirm, KeysDialog } from './confirm.tsx';
import { AnswerTable } from './inbox-answer-table.tsx';
import { BulkBar } from './inbox-bulk-bar.tsx';
import { ColumnChooser } from './inbox-column-chooser.tsx';
import { INBOX_KEYS, PENDING_KEYS, useInboxKeys } from './inbox-keys.tsx';
import { SubmissionTable } from './inbox-table.tsx';
import { useTriage } from './inbox-triage.ts';

/**
 * A list of submissions to triage, as the inbox's page and the search's
 * matches both are: the rows, their selection, keys and bulk bar, and the
 * questions before deleting. Mounted anew for each folder, page or search
 * (its parent keys it), so its notices and selection belong to one place.
 */
export function InboxList(props: {
  formId: string;
  folder: Folder;
  items: Submission[];
  fields: FieldDefinition[] | null;
  caption: string;
  hrefOf: (submission: Submission) => string;
  onOpen: (submission: Submission) => void;
  reload: () => Promise<unknown>;
  /** The folder as of the list, when all of it may be selected (the inbox, not a search). */
  matching?: { asOf: string; total: number };
  /** The spam folder narrowed to one spam reason. */
  reason?: SpamReason;
  help: boolean;
  setHelp: (open: boolean) => void;
  /** Rows or a table, and the table's columns (docs/dashboard.md#the-table-view). */
  view: InboxView;
  setView: (view: InboxView) => void;
  /** Above the rows: what the list holds (a search's count, the spam folder's Empty spam). */
  children?: ComponentChildren;
  /** Under the rows: the pager, "search further". */
  footer?: ComponentChildren;
}) {
  const { items, folder } = props;
  // Waiting for confirmation: only Delete applies (docs/dashboard.md#confirm-by-email).
  const triageable = folder !== 'pending';
  const rows = useRef<HTMLTableSectionElement>(null);
  const action = useAction();
  const triage = useTriage({
    formId: props.formId,
    folder,
    items,
    action,
    reload: props.reload,
    matching: props.matching,
    reason: props.reason,
  });
  const { selection } = triage;
  const hasSelection = selection.allMatching || selection.ids.size > 0;

  const keys = useInboxKeys({
    rows,
    count: items.length,
    items,
    hasSelection,
    enabled: !triage.deleting && !props.help,
    onOpen: (i) => props.onOpen(items[i]!),
    onRead: (i) => triageable && void triage.change({ read: !items[i]!.read }, [items[i]!.id]),
    onStar: (i) =>
      triageable && void triage.change({ starred: !items[i]!.starred }, [items[i]!.id]),
    onSpam: (i) => {
      if (!triageable) return;
      if (i !== undefined) keys.focusAfterChange(i);
      void triage.change(
        { isSpam: folder !== 'spam' },
        i === undefined ? undefined : [items[i]!.id],
      );
    },
    onDelete: (i) => triage.askDelete(i === undefined ? undefined : [items[i]!.id]),
    onSelect: (i) => selection.toggle(i, false),
    onClearSelection: selection.clear,
    onUndo: () => action.undo?.(),
    onHelp: () => props.setHelp(true),
  });

  // A row ticked where the bar then appears is scrolled clear of it: the bar never hides a row
  // it acts on (docs/dashboard.md#the-inbox). A row already in sight does not move.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the selection changing
  useEffect(() => {
    const row = selection.lastToggled;
    if (row === undefined || !selection.has(items[row]?.id ?? '')) return;
    rows.current?.children[row]?.scrollIntoView({ block: 'nearest' });
  }, [selection.ids]);

  // Back from a submission (`u`, Escape, the back link, the browser's back), focus is on its row,
  // so the keys go on from there (docs/dashboard.md#keys-on-a-submission).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the list is first shown
  useEffect(() => {
    const back = returnedFrom(props.formId);
    const row = back === undefined ? -1 : items.findIndex((each) => each.id === back);
    if (row >= 0) keys.focusRow(row);
  }, []);

  const table = props.view.view === 'table';
  const allColumns = questionColumns(props.fields, items, props.view.columns);
  const columns = shownColumns(allColumns, props.view.columns);

  const deleting = triage.deleting;
  const size = deleting ? triage.sizeOf(deleting) : 0;
  const emptying = deleting && 'filter' in deleting && deleting.filter === 'spam' && !hasSelection;
  return (
    <>
      {props.children}
      {props.reason === 'duplicate' && props.matching && props.matching.total > 0 && (
        <DuplicatesBack
          count={props.matching.total}
          busy={action.busy}
          onMoveBack={() => void triage.change({ isSpam: false }, 'all')}
        />
      )}
      {folder === 'pending' && props.matching && props.matching.total > 0 && (
        <p class="spam-rule">
          Each of these visitors was sent an email with a link to confirm their address. Their
          answers are not sent on or counted until they press it. A link expires 48 hours after its
          answer came: then the answer can no longer be confirmed, and once deleted it counts in the
          summary as not confirmed. Here you can only delete them.
        </p>
      )}
      {folder === 'spam' && !props.reason && props.matching && props.matching.total > 0 && (
        <p class="spam-rule">
          Spam is deleted by itself 30 days after it became spam.{' '}
          <button type="button" class="danger" onClick={() => triage.askDelete('folder')}>
            Empty spam
          </button>
        </p>
      )}
      {table && items.length > 0 && (
        <ColumnChooser
          all={allColumns}
          shown={columns}
          chosen={props.view.columns !== undefined}
          onChange={(chosen) => props.setView({ view: 'table', columns: chosen })}
        />
      )}
      {table && items.length > 0 && (
        <AnswerTable
          caption={props.caption}
          items={items}
          fields={props.fields}
          columns={columns}
          selection={selection}
          focused={keys.focused}
          rows={rows}
          hrefOf={props.hrefOf}
          onStar={(each) => void triage.change({ starred: !each.starred }, [each.id])}
        />
      )}
      {!table && items.length > 0 && (
        <SubmissionTable
          caption={props.caption}
          items={items}
          fields={props.fields}
          selection={selection}
          focused={keys.focused}
          rows={rows}
          hrefOf={props.hrefOf}
          onStar={(each) => void triage.change({ starred: !each.starred }, [each.id])}
        />
      )}
      {props.footer}
      <BulkBar
        action={action}
        triage={triage}
        folder={folder}
        folderTotal={props.matching?.total}
        shown={items.length}
      />
      {deleting && (
        <Confirm
          title={
            emptying ? `Empty spam: delete ${submissions(size)}?` : `Delete ${submissions(size)}?`
          }
          confirm={emptying ? 'Empty spam' : 'Delete'}
          onConfirm={() => {
            if (keys.focused !== undefined) keys.focusAfterChange(keys.focused);
            void triage.confirmDelete();
          }}
          onCancel={triage.cancelDelete}
        >
          {folder === 'pending' ? (
            <p>
              They and their files are deleted for good, and their confirmation links stop working.
            </p>
          ) : (
            <p>
              They and their files are deleted for good. They still count in this month’s usage.
            </p>
          )}
          {folder === 'spam' && (
            <p>
              Spam is also deleted by itself 30 days after it became spam, so an untouched spam
              folder does not grow for ever.
            </p>
          )}
        </Confirm>
      )}
      {props.help && (
        <KeysDialog
          keys={triageable ? INBOX_KEYS : PENDING_KEYS}
          onClose={() => props.setHelp(false)}
        />
      )}
    </>
  );
}

/**
 * The duplicates in spam, and one action that moves them all back
 * (docs/dashboard.md#the-inbox): the rule once took the same answers from
 * different people for duplicates, and a survey's real answers may be here.
 */
function DuplicatesBack(props: { count: number; busy: boolean; onMoveBack: () => void }) {
  return (
    <div class="spam-rule duplicates-back">
      <p>
        A duplicate is the same answers from the same visitor (address and browser) within 24 hours.
        The rule once took the same answers from different people for duplicates too, so some here
        may be real answers. Moved back, they count in the inbox and the summary.
      </p>
      <button type="button" disabled={props.busy} onClick={props.onMoveBack}>
        Move all {submissions(props.count)} back to the inbox
      </button>
    </div>
  );
}
