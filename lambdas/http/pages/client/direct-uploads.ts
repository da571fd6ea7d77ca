/// <reference lib="dom" />
/**
 * Direct uploads from the browser (the three steps of
 * docs/uploads-and-pages.md#direct-uploads): the policies from
 * `POST /s/{key}/uploads`, one POST per file to S3, and the ids for the
 * form's `_uploads`. XMLHttpRequest, not fetch:
 * only it reports upload progress.
 */

/** A file chosen in one of the form's file fields. */
export interface ChosenFile {
  field: string;
  file: File;
}

interface Grant {
  uploadId: string;
  url: string;
  fields: Record<string, string>;
}

/** A refusal of the uploads route (413, 415, 400 uploads_disabled, 423, 429…) or of storage. */
export class UploadRefused extends Error {
  /**
   * The field the refusal is shown on; none for a refusal of the whole post
   * (too many posts, a closed form), which is shown above the form.
   */
  readonly field: string | undefined;

  constructor(message: string, field: string | undefined) {
    super(message);
    this.field = field;
  }
}

/** The uploads route's refusals that are about the files chosen (docs/uploads-and-pages.md). */
const FILE_REFUSALS = new Set([
  'file_too_large',
  'file_type_not_allowed',
  'too_many_files',
  'payload_too_large',
]);

/** Every non-empty file of the form's file inputs, in the form's order. */
export function chosenFiles(element: HTMLFormElement): ChosenFile[] {
  return [...element.querySelectorAll<HTMLInputElement>('input[type=file]')].flatMap((input) =>
    [...(input.files ?? [])]
      .filter((file) => file.size > 0)
      .map((file) => ({ field: input.name, file })),
  );
}

/**
 * The field a refusal belongs to: the one whose file the message names
 * (`file_too_large` and `file_type_not_allowed` name it), else the first.
 */
function fieldOf(message: string, files: readonly ChosenFile[]): string {
  return (files.find(({ file }) => message.includes(file.name)) ?? files[0]!).field;
}

/** Step 1: one policy per file, in order; a refusal becomes UploadRefused with the route's message. */
export async function requestUploads(url: string, files: readonly ChosenFile[]): Promise<Grant[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({
      files: files.map(({ field, file }) => ({
        name: file.name,
        size: file.size,
        type: file.type || undefined,
        field,
      })),
    }),
    credentials: 'omit',
  });
  const answer = (await response.json().catch(() => ({}))) as {
    uploads?: Grant[];
    error?: string;
    message?: string;
  };
  if (!response.ok || !Array.isArray(answer.uploads) || answer.uploads.length !== files.length) {
    const message = answer.message ?? `The files could not be sent (${response.status}).`;
    // Only a refusal of the files is shown at their field; a 429 or a closed form is the post's.
    const aboutFiles = !response.ok && FILE_REFUSALS.has(answer.error ?? '');
    throw new UploadRefused(message, aboutFiles ? fieldOf(message, files) : undefined);
  }
  return answer.uploads;
}

/** Step 2: the policy's fields, then the file last; `progress` gets the fraction sent (0 to 1). */
export function postFile(
  grant: Grant,
  chosen: ChosenFile,
  progress: (fraction: number) => void,
): Promise<void> {
  const body = new FormData();
  for (const [name, value] of Object.entries(grant.fields)) body.append(name, value);
  body.append('file', chosen.file);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const failed = (why: string) =>
      reject(
        new UploadRefused(`${chosen.file.name} could not be uploaded (${why}).`, chosen.field),
      );
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) progress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        progress(1);
        resolve();
      } else {
        failed(`status ${request.status}`);
      }
    });
    request.addEventListener('error', () => failed('the connection failed'));
    request.addEventListener('abort', () => failed('stopped'));
    request.open('POST', grant.url);
    request.send(body);
  });
}
