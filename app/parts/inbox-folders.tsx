import { useEffect, useRef } from 'preact/hooks';
import { FOLDER_NAMES, SPAM_REASON_FILTERS } from '../inbox-model.ts';
import { FOLDERS, type Folder, type SpamReason } from '../model.ts';
import { paths } from '../paths.ts';
import { Link } from './link.tsx';

/**
 * The folders with their counts; the one open is the current page. Waiting
 * for confirmation shows on a form that asks for it, and on any that still
 * holds such submissions (the setting turned off since).
 */
export function FolderLinks(props: {
  formId: string;
  folder: Folder;
  pageSize: number;
  counts: Record<Folder, number>;
  /** The form asks visitors to confirm their email (`confirmEmail`). */
  confirming: boolean;
}) {
  const shown = FOLDERS.filter(
    (each) =>
      each !== 'pending' ||
      props.confirming ||
      props.counts.pending > 0 ||
      props.folder === 'pending',
  );
  // On a phone the folders scroll sideways: the open one (Waiting for confirmation, last) in
  // sight. Sideways only: the page itself never moves (a row focused on the way back stays).
  const nav = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the folder opened
  useEffect(() => {
    const row = nav.current;
    const open = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !open) return;
    const left = open.offsetLeft - row.offsetLeft;
    if (left < row.scrollLeft) row.scrollLeft = left;
    else if (left + open.offsetWidth > row.scrollLeft + row.clientWidth)
      row.scrollLeft = left + open.offsetWidth - row.clientWidth;
  }, [props.folder]);
  return (
    <nav aria-label="Folders" class="folders" ref={nav}>
      {shown.map((each) => (
        <Link
          key={each}
          to={paths.inbox(props.formId, { folder: each, page: 1, pageSize: props.pageSize })}
          aria-current={each === props.folder ? 'page' : undefined}
        >
          {FOLDER_NAMES[each]} <span class="count">{props.counts[each]}</span>
        </Link>
      ))}
    </nav>
  );
}

/**
 * The spam folder by why each is spam: any reason, or one of them
 * (docs/dashboard.md#the-inbox). Counts show once a narrowed list has read them.
 */
export function SpamReasonLinks(props: {
  formId: string;
  reason: SpamReason | undefined;
  pageSize: number;
  counts?: Partial<Record<SpamReason, number>>;
}) {
  return (
    <nav aria-label="Why spam" class="folders reasons">
      {SPAM_REASON_FILTERS.map(([each, words]) => {
        const count = each && props.counts?.[each];
        return (
          <Link
            key={each ?? 'any'}
            to={paths.inbox(props.formId, {
              folder: 'spam',
              reason: each,
              page: 1,
              pageSize: props.pageSize,
            })}
            aria-current={each === props.reason ? 'page' : undefined}
          >
            {words}
            {count !== undefined && (
              <>
                {' '}
                <span class="count">{count}</span>
              </>
            )}
          </Link>
        );
      })}
    </nav>
  );
}
