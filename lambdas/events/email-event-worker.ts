import type { SQSRecord } from 'aws-lambda';
import { asSentTo, emailEventOf, suppresses } from '#domain/email-events.ts';
import { log } from '#log';
import { count } from '#metrics';
import { getEmailMark, recordEmailFate } from '#store/deliveries.ts';
import { suppress } from '#store/suppressions.ts';
import { queueWorker } from './batch-worker.ts';

/**
 * SES's events about the emails the service sent (its configuration set →
 * EventBridge → the emailEvents queue; locally the SES emulator's front
 * feeds the same queue): each records the email's fate on its submission's
 * email record, and a permanent bounce or a complaint puts the address on
 * the sending team's suppression list (docs/delivery.md#suppressed-addresses).
 * An event that is not about one of ours is dropped: nothing to record.
 * Events are independent: a batch is handled at once.
 */
export const handler = queueWorker(() => record, { parallel: true });

async function record(message: SQSRecord): Promise<void> {
  const envelope = JSON.parse(message.body) as { detail?: unknown };
  const event = emailEventOf(envelope.detail);
  if (!event) {
    log.info('email event skipped', { reason: 'not an event of ours' });
    return;
  }
  const { formId, submissionId, kind, teamId } = event.tags;
  if (suppresses(event)) {
    // Rare events, worth a read: a forward's bounce names its final address, not ours.
    const named = event.recipients;
    event.recipients = asSentTo(named, (await getEmailMark(formId, submissionId, kind))?.sentTo);
    if (event.recipients.join() !== named.join()) {
      log.info('email event about another address than sent to', { formId, submissionId, kind });
    }
  }
  const recorded = await recordEmailFate(formId, submissionId, kind, event);
  count('EmailEvent', 1, { fate: event.fate });
  if (suppresses(event)) {
    const reason = event.fate === 'complained' ? 'complaint' : 'bounce';
    await Promise.all(
      event.recipients.map((address) =>
        suppress(
          teamId,
          {
            email: address.trim().toLowerCase(),
            reason,
            bounceType: event.bounceType,
            at: event.at,
            formId,
            submissionId,
          },
          // SES lifts its own entry only by this exact spelling (docs/delivery.md#suppressed-addresses).
          address,
        ),
      ),
    );
    count('AddressSuppressed', event.recipients.length, { reason });
  }
  log.info('email event', {
    formId,
    submissionId,
    kind,
    fate: event.fate,
    bounceType: event.bounceType,
    recorded,
  });
}
