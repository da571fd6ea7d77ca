import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import {
  exportFileName,
  exportFileText,
  type FormCount,
  foundWords,
  type PersonExport,
} from '../privacy-model.ts';
import { Listing } from './listing.tsx';

/** What a look-up found: the document and its counts, or why it could not be read whole. */
export type Found =
  | { email: string; exported: PersonExport; counts: FormCount[]; unreadable?: undefined }
  | { email: string; unreadable: string; exported?: undefined; counts?: undefined };

/**
 * The submissions holding one address, counted by form, with the download of
 * the export (the document read, as a file named for what it is) and Erase.
 */
export function PrivacyFound(props: {
  found: Found;
  heading: RefObject<HTMLHeadingElement | null>;
  busy: boolean;
  onErase: () => void;
}) {
  const { found } = props;
  const link = useDownloadLink(found.exported);
  const total = found.counts?.reduce((sum, form) => sum + form.count, 0) ?? 0;
  return (
    <section aria-labelledby="found-title" class="found">
      <h3 id="found-title" tabIndex={-1} ref={props.heading}>
        Submissions holding {found.email}
      </h3>
      {found.counts ? (
        <p>{foundWords(found.email, found.counts)}</p>
      ) : (
        <p class="problem" role="alert">
          {found.unreadable}
        </p>
      )}
      {found.counts && total > 0 && (
        <Listing columns={['Form', 'Submissions']}>
          {found.counts.map((form) => (
            <tr key={form.formId}>
              <th scope="row">{form.name}</th>
              <td>{form.count.toLocaleString('en')}</td>
            </tr>
          ))}
        </Listing>
      )}
      {(total > 0 || found.unreadable) && (
        <div class="actions">
          {link && (
            <a class="button" href={link} download={exportFileName(found.email, new Date())}>
              Download them (JSON)
            </a>
          )}
          <button type="button" class="danger" disabled={props.busy} onClick={props.onErase}>
            Erase…
          </button>
        </div>
      )}
    </section>
  );
}

/** A link to the document as a file, made while it is shown and let go after. */
function useDownloadLink(exported: PersonExport | undefined): string | undefined {
  const [link, setLink] = useState<string>();
  useEffect(() => {
    if (!exported || exported.submissions.length === 0) {
      setLink(undefined);
      return;
    }
    const made = URL.createObjectURL(
      new Blob([exportFileText(exported)], { type: 'application/json' }),
    );
    setLink(made);
    return () => URL.revokeObjectURL(made);
  }, [exported]);
  return link;
}
