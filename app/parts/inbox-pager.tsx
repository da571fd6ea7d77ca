import { FOLDER_NAMES } from '../inbox-model.ts';
import type { Folder, SpamReason, SubmissionPage } from '../model.ts';
import { DEFAULT_PAGE_SIZE, paths } from '../paths.ts';
import { navigate } from '../router.ts';
import { Link } from './link.tsx';

export const PAGE_SIZES = [DEFAULT_PAGE_SIZE, 25, 50, 100];

/** Previous and next page of a folder, where the page stands, and the page size. */
export function Pager(props: {
  formId: string;
  folder: Folder;
  reason?: SpamReason;
  list: SubmissionPage;
}) {
  const { list, formId, folder, reason } = props;
  const pageLink = (page: number) =>
    paths.inbox(formId, { folder, reason, page, pageSize: list.pageSize });
  return (
    <nav aria-label="Pages" class="pager">
      {list.page > 1 ? <Link to={pageLink(list.page - 1)}>Previous page</Link> : <span />}
      <span>
        {/* A folder's size, tests included: named by the folder, not as submissions. */}
        Page {list.page} of {list.pageCount} · {list.total.toLocaleString()} in{' '}
        {FOLDER_NAMES[folder]}
      </span>
      <label>
        Per page{' '}
        <select
          value={list.pageSize}
          onChange={(event) =>
            navigate(
              paths.inbox(formId, {
                folder,
                reason,
                page: 1,
                pageSize: Number(event.currentTarget.value),
              }),
            )
          }
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      {list.page < list.pageCount ? <Link to={pageLink(list.page + 1)}>Next page</Link> : <span />}
    </nav>
  );
}
