import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type ReplayJob, replayJobs } from '#domain/stream-replay.ts';
import { getForm, listTeamForms } from '#store/forms.ts';
import { submissionIdsReceivedBetween } from '#store/submission-replays.ts';
import { listTeams } from '#store/teams.ts';

/**
 * `stream replay` (docs/operations.md#replaying-the-stream): the stream's
 * work for the submissions received in `[from, to)` done again, for one
 * form or every form. The forms are found as `team list` finds the teams
 * (the byParent index: the teams, then each team's forms), each form's
 * submissions by a range of its sort keys: Queries, never a Scan. Each
 * form's ids go to the replay queue 25 a message; the stack's replayer
 * runs the dispatcher's code on them with the dispatcher's grants, so this
 * side needs only table reads and sqs:SendMessage. The table must be
 * configured before this module is imported.
 */

/** What a replay did not redo, said with its result. */
export const NOT_REPLAYED =
  'The summary is not replayed: its buckets take each stream record once by its sequence number. Run `summary rebuild --form FORM_ID` for a form whose summary missed records.';

export interface ReplayOptions {
  from: string;
  to: string;
  /** One form; every form of every team when left out. */
  formId?: string;
  /** Counts without sending. */
  dryRun?: boolean;
}

export interface ReplayResult {
  from: string;
  to: string;
  forms: number;
  submissions: number;
  messages: number;
  sent: boolean;
  notReplayed: string;
}

/** SendMessageBatch takes 10 entries. */
const BATCH = 10;

export async function replayStream(
  options: ReplayOptions,
  queue: { sqs: SQSClient; url: string },
): Promise<ReplayResult> {
  const formIds = options.formId ? [options.formId] : await everyFormId();
  if (options.formId && !(await getForm(options.formId))) {
    throw new Error(`no form ${options.formId}`);
  }
  let forms = 0;
  let submissions = 0;
  let messages = 0;
  for (const formId of formIds) {
    let counted = false;
    for await (const ids of submissionIdsReceivedBetween(formId, options.from, options.to)) {
      if (!counted) forms += 1;
      counted = true;
      submissions += ids.length;
      const jobs = replayJobs(formId, ids);
      messages += jobs.length;
      if (!options.dryRun) await send(queue, jobs);
    }
  }
  return {
    from: options.from,
    to: options.to,
    forms,
    submissions,
    messages,
    sent: !options.dryRun,
    notReplayed: NOT_REPLAYED,
  };
}

async function everyFormId(): Promise<string[]> {
  const ids: string[] = [];
  for (const team of await listTeams()) {
    for (const form of await listTeamForms(team.teamId)) ids.push(form.id);
  }
  return ids;
}

async function send(queue: { sqs: SQSClient; url: string }, jobs: ReplayJob[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += BATCH) {
    const result = await queue.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: jobs.slice(i, i + BATCH).map((job, n) => ({
          Id: String(n),
          MessageBody: JSON.stringify(job),
        })),
      }),
    );
    if (result.Failed && result.Failed.length > 0) {
      throw new Error(
        `${result.Failed.length} replay messages refused by the queue: ${result.Failed[0]?.Code}`,
      );
    }
  }
}
