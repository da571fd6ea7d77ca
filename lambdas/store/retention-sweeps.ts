import { formKey } from './keys.ts';
import { updateIf } from './retries.ts';
import { RETENTION_SWEEP_ATTRIBUTE } from './schema.ts';

/**
 * Marks the form swept at `now` while it keeps a `retentionDays`: one
 * UpdateItem, whose stream record lets the retention applier purge and
 * schedule the next sweep (docs/submissions.md#retention). False when the
 * form is gone or keeps everything now: its chain of sweeps ends there.
 */
export function markRetentionSweep(formId: string, now: Date): Promise<boolean> {
  return updateIf({
    Key: formKey(formId),
    UpdateExpression: 'SET #swept = :now',
    ConditionExpression: 'attribute_type(retentionDays, :number)',
    ExpressionAttributeNames: { '#swept': RETENTION_SWEEP_ATTRIBUTE },
    ExpressionAttributeValues: { ':now': now.toISOString(), ':number': 'N' },
  });
}
