import { Readable } from 'node:stream';
import { config } from '#config';
import type { AnswerCatalogue } from '#domain/answer-columns.ts';
import { csvRecords, UTF8_BOM } from '#domain/csv.ts';
import { submissionPageUrl } from '#domain/dashboard-links.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { keptFrom } from '#domain/retention.ts';
import {
  AnswerColumns,
  type ExportHeader,
  exportHeader,
  exportRow,
  type FileCells,
} from '#domain/submission-export.ts';
import type { Folder } from '#domain/submission-folders.ts';
import { log } from '#log';
import { walkFolder } from '#store/folder-reads.ts';

/**
 * The export's bytes, produced only as fast as they are sent: the UTF-8 BOM
 * at once, the header, then one chunk of rows per batch read. The header's
 * answer columns come from the form's column catalogue, read with the form
 * (consistently) before the walk, so the folder is walked once and rows
 * follow the header at once. A form whose catalogue is not complete (stored
 * before catalogues existed) falls back to two passes: pass 1 walks the
 * folder for the answer names, pass 2 writes the rows. Every walk reads only
 * submissions received up to `createdUpTo`, so later arrivals are left out
 * (and two passes agree). Memory holds a few batches and the column names,
 * however many rows.
 */
/**
 * Batches of 100 read at once. A fallback's pass 1 must finish within the
 * 30 s an edge-optimized API waits for the next bytes; four BatchGets in
 * flight wait on DynamoDB a quarter as often, and hold at most 400
 * submissions (well under a megabyte for usual posts; 160 MB if every one
 * were at DynamoDB's 400 KB item limit).
 */
const READ_AHEAD = 4;

export function exportBody(
  form: FormRecord,
  catalogue: AnswerCatalogue | undefined,
  folder: Folder,
  createdUpTo: string,
  header: ExportHeader = 'ids',
): Readable {
  // One chunk in the buffer: the next batch is read only once this one is taken.
  return Readable.from(exportChunks(form, catalogue, folder, createdUpTo, header), {
    highWaterMark: 1,
  });
}

async function* exportChunks(
  form: FormRecord,
  catalogue: AnswerCatalogue | undefined,
  folder: Folder,
  createdUpTo: string,
  header: ExportHeader,
): AsyncGenerator<string> {
  // The first byte leaves before any read: an edge-optimized API closes a
  // streamed response that sends nothing for 30 s.
  yield UTF8_BOM;
  // Past the form's retention at the export's start: left out (docs/submissions.md#retention).
  const from = keptFrom(form.retentionDays, new Date(createdUpTo), config.retentionDaySeconds);
  const walk = () =>
    walkFolder(form.id, folder, { createdUpTo, keptFrom: from, readAhead: READ_AHEAD });
  const columns = new AnswerColumns(form.fields);
  const onePass = catalogue?.complete === true;
  if (onePass) {
    columns.noteNames(catalogue.names);
  } else {
    for await (const batch of walk()) columns.note(batch);
  }
  yield csvRecords([
    exportHeader(columns.names, header === 'labels' ? { fields: form.fields } : undefined),
  ]);
  // A file field's cell links to the submission's page in the dashboard, a link that lasts.
  const files: FileCells = {
    fields: form.fields,
    pageOf: (id) => submissionPageUrl(config.baseUrl, form.id, id),
  };
  let rows = 0;
  let lateNames = 0;
  for await (const batch of walk()) {
    rows += batch.length;
    // A post committed after the catalogue was read may carry a name the header lacks.
    if (onePass) lateNames += columns.lateNames(batch);
    yield csvRecords(batch.map((submission) => exportRow(submission, columns.names, files)));
  }
  log.info('export written', {
    formId: form.id,
    folder,
    header,
    rows,
    passes: onePass ? 1 : 2,
    answerColumns: columns.names.length,
    answerNamesLeftOut: columns.droppedCount,
  });
  if (lateNames > 0) {
    log.warn('export rows carried answer names the header lacks', { formId: form.id, lateNames });
  }
}
