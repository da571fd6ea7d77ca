/**
 * The SES mailbox simulator as the local stack plays it
 * (docs/delivery.md#testing-bounces-and-complaints-locally): the local SES
 * emulator cannot bounce, so for an email sent with a configuration set the
 * events SES would publish are made here, in SES's own event format, and fed
 * through the same queue and worker as deployed. Addresses at
 * simulator.amazonses.com behave as AWS documents them; every other
 * recipient is delivered.
 */

/** The part of an SES v2 SendEmail request the events are made from. */
export interface SentEmail {
  ConfigurationSetName?: string;
  EmailTags?: { Name: string; Value: string }[];
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
}

/** An EventBridge event as SES publishes it to the default bus. */
export interface SesBusEvent {
  source: 'aws.ses';
  'detail-type': string;
  detail: Record<string, unknown>;
}

const SIMULATOR = '@simulator.amazonses.com';

const DETAIL_TYPES: Record<string, string> = {
  Send: 'Email Sent',
  Delivery: 'Email Delivered',
  Bounce: 'Email Bounced',
  Complaint: 'Email Complaint Received',
};

export function simulatedEvents(request: SentEmail, messageId: string, now: Date): SesBusEvent[] {
  if (!request.ConfigurationSetName) return [];
  const destination = [
    ...(request.Destination?.ToAddresses ?? []),
    ...(request.Destination?.CcAddresses ?? []),
    ...(request.Destination?.BccAddresses ?? []),
  ];
  const tags: Record<string, string[]> = {
    'ses:configuration-set': [request.ConfigurationSetName],
  };
  for (const tag of request.EmailTags ?? []) tags[tag.Name] = [tag.Value];
  const timestamp = now.toISOString();
  const mail = {
    timestamp,
    messageId,
    source: request.FromEmailAddress ?? '',
    destination,
    tags,
  };
  const event = (eventType: string, body: Record<string, unknown>): SesBusEvent => ({
    source: 'aws.ses',
    'detail-type': DETAIL_TYPES[eventType]!,
    detail: { eventType, mail, ...body },
  });
  const events = [event('Send', { send: {} })];
  for (const address of destination) {
    const local = address.toLowerCase().endsWith(SIMULATOR)
      ? address.toLowerCase().slice(0, -SIMULATOR.length).split('+')[0]
      : undefined;
    if (local === 'bounce' || local === 'suppressionlist') {
      events.push(
        event('Bounce', {
          bounce: {
            bounceType: 'Permanent',
            bounceSubType: local === 'bounce' ? 'General' : 'OnAccountSuppressionList',
            bouncedRecipients: [{ emailAddress: address }],
            timestamp,
          },
        }),
      );
      continue;
    }
    events.push(event('Delivery', { delivery: { timestamp, recipients: [address] } }));
    if (local === 'complaint') {
      events.push(
        event('Complaint', {
          complaint: {
            complainedRecipients: [{ emailAddress: address }],
            complaintFeedbackType: 'abuse',
            timestamp,
          },
        }),
      );
    }
  }
  return events;
}
