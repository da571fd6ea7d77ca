import { FOLDER_NAMES } from '../inbox-model.ts';
import { FOLDERS, type Folder } from '../model.ts';
import { paths } from '../paths.ts';
import { Link } from './link.tsx';

/** The folders with their counts; the one open is the current page. */
export function FolderLinks(props: {
  formId: string;
  folder: Folder;
  pageSize: number;
  counts: Record<Folder, number>;
}) {
  return (
    <nav aria-label="Folders" class="folders">
      {FOLDERS.map((each) => (
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
