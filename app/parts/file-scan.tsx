import { downloadable, scanStateOf, scanStateText } from '#domain/file-scans.ts';
import { type ShownFile, size } from '../answers.ts';

/**
 * One file of a submission with where its malware scan stands
 * (docs/uploads-and-pages.md#malware-scanning): "Checking…" (then "Not
 * checked yet" once it is 30 minutes late), "Clean", "Malware found: <name>,
 * deleted", "Could not be checked"; nothing for a file never scanned. The
 * download button only where the API gives a link (a clean file, or one never
 * scanned): the bucket would refuse any other anyway.
 */
export function FileEntry(props: {
  file: ShownFile;
  /** The submission's `createdAt`: a pending file is late 30 minutes after it. */
  createdAt: string;
  download: (index: number) => void;
}) {
  const { file } = props;
  const state = scanStateOf(file, props.createdAt, Date.now());
  return (
    <li>
      {file.name}{' '}
      <span class="meta">
        ({file.mime}, {size(file.size)})
      </span>{' '}
      {state !== 'not_scanned' && (
        <span class={`scan-state ${state}`}>{scanStateText(state, file.threats)}</span>
      )}{' '}
      {downloadable(file) && (
        <button
          type="button"
          onClick={() => props.download(file.index)}
          aria-label={`Download ${file.name}`}
        >
          Download
        </button>
      )}
    </li>
  );
}
