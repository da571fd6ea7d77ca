import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Submission } from '#domain/submission-model.ts';
import { toSubmission } from './folder-reads.ts';
import type { EmailHints } from './submissions.ts';

type Image = Record<string, AttributeValue>;

/**
 * A submission as a table-stream record's image holds it (the item as
 * written): no read needed to learn what was stored.
 */
export function submissionOfImage(image: Image): {
  submission: Submission;
  hints: EmailHints;
  /** A waitlist signup's sender, by the keyed hash of its address (docs/privacy.md#the-signup-mark). */
  signupHash?: string;
} {
  // A stream image's types come from Lambda's event, shaped like the SDK's.
  const item = unmarshall(image as Parameters<typeof unmarshall>[0]);
  return {
    submission: toSubmission(item),
    hints: (item.emailHints as EmailHints | undefined) ?? {},
    ...(typeof item.signupHash === 'string' ? { signupHash: item.signupHash } : {}),
  };
}
