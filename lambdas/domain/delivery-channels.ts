import type { PlanName } from './form-gating.ts';
import type { FormRecord } from './form-model.ts';
import type { ChatKind } from './integrations.ts';
import type { SpamReason } from './submission-model.ts';

/**
 * Who hears of a stored submission (docs/delivery.md#who-hears-of-a-submission):
 * each channel is one queue message, carrying ids only, so the workers read
 * the form's settings as they are when they send.
 */
export type Channel = 'webhook' | 'notification' | 'autoreply' | ChatKind | 'sheets';

/**
 * One message of the email queue: which email of which submission. `malware`
 * tells the notification's recipients a file was found infected
 * (docs/uploads-and-pages.md#malware-scanning); `confirm` asks the visitor
 * to confirm a pending answer (docs/delivery.md#confirmation-emails).
 */
export interface EmailJob {
  formId: string;
  submissionId: string;
  kind: 'notification' | 'autoreply' | 'malware' | 'confirm';
}

/** One message of the webhook queue. */
export interface WebhookJob {
  formId: string;
  submissionId: string;
  /**
   * The integration it goes to (docs/integrations.md#slack-and-discord);
   * absent for the webhook, so messages queued before integrations keep working.
   */
  channel?: ChatKind;
  /** What it announces; absent for `submission.created` (docs/delivery.md#files-scanned). */
  event?: 'submission.files_scanned';
}

/**
 * One message of the FIFO `sheets` queue (docs/integrations.md#sending-rows):
 * grouped by form, deduplicated per submission (a manual retry's with a
 * nonce of its own, so SQS does not drop it as a repeat of the first).
 */
export interface SheetsJob {
  formId: string;
  submissionId: string;
  /** Sent by the retry route: the row may be in the sheet already, so the id column is read first. */
  manual?: true;
}

/** The FIFO message of a Sheets job: its form's group, its deduplication id. */
export function sheetsMessage(job: SheetsJob, nonce?: string) {
  return {
    body: job,
    groupId: job.formId,
    deduplicationId: nonce ? `${job.submissionId}-retry-${nonce}` : job.submissionId,
  };
}

/**
 * The channels that apply to a new submission:
 * - the webhook when one is connected and the team is Pro, spam included
 *   (receivers filter on `data.spam`) but for a person's second answer
 *   (`duplicate_person`, which nothing hears of), tests included (`data.test`);
 * - each Slack or Discord integration connected, on Pro, never for spam
 *   (a channel is read by people), tests included and marked as tests;
 * - Google Sheets when connected, on Pro, never for spam, tests included
 *   (written with `isTest` true);
 * - the owner notification when `notifyEnabled`, never for spam: the spam
 *   folder exists to keep it out of the inbox;
 * - the auto-reply when `autoreplyEnabled` on Pro and a submitter address
 *   was found, never for spam: spammers put victims' addresses in forms, and
 *   replying would make the service a backscatter source.
 */
export function channelsFor(input: {
  form: Pick<FormRecord, 'notifyEnabled' | 'autoreplyEnabled'>;
  plan: PlanName;
  webhookConnected: boolean;
  /** The Slack and Discord integrations connected. */
  chats: readonly ChatKind[];
  /** A Google Sheets integration is connected. */
  sheets?: boolean;
  spam: boolean;
  /**
   * Why it is spam: a person's second answer (`duplicate_person`) is kept for
   * the owner to see and goes nowhere, not even to the webhook
   * (docs/submit.md#one-answer-per-person).
   */
  spamReason?: SpamReason;
  submitterFound: boolean;
}): Channel[] {
  const channels: Channel[] = [];
  const pro = input.plan === 'pro';
  if (input.spam && input.spamReason === 'duplicate_person') return channels;
  if (input.webhookConnected && pro) channels.push('webhook');
  if (pro && !input.spam) channels.push(...input.chats);
  if (pro && !input.spam && input.sheets) channels.push('sheets');
  if (!input.spam && input.form.notifyEnabled) channels.push('notification');
  if (!input.spam && pro && input.form.autoreplyEnabled && input.submitterFound) {
    channels.push('autoreply');
  }
  return channels;
}

/**
 * Who hears that a submission's files have their verdicts
 * (docs/delivery.md#files-scanned): the webhook on Pro (spam included, as
 * for `submission.created`), each Slack or Discord integration on Pro (never
 * for spam), and, when a file was infected, the notification's recipients by
 * email (never for spam: the file is deleted, and the spam folder keeps it
 * out of the inbox), whether or not notifications are on. Nobody, as for its
 * `submission.created`, for a person's second answer (`duplicate_person`).
 */
export function scanChannelsFor(input: {
  plan: PlanName;
  webhookConnected: boolean;
  chats: readonly ChatKind[];
  spam: boolean;
  spamReason?: SpamReason;
  infected: boolean;
}): Array<'webhook' | ChatKind | 'malware'> {
  const pro = input.plan === 'pro';
  if (input.spam && input.spamReason === 'duplicate_person') return [];
  return [
    ...(input.webhookConnected && pro ? (['webhook'] as const) : []),
    ...(pro && !input.spam ? input.chats : []),
    ...(input.infected && !input.spam ? (['malware'] as const) : []),
  ];
}
