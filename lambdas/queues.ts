import type { SettingValues } from './settings.ts';

/**
 * The service's queues as plain data, read by the CDK stack and the local
 * bootstrap alike. Each has a dead-letter queue; a message that fails
 * `maxReceiveCount` times lands there for an operator.
 */
export type QueueName = keyof typeof QUEUES;

export interface QueueDefinition {
  /** Logical name; the local queue is named `<prefix>-<name>`. */
  name: string;
  /** Environment variable that carries the queue URL to functions. */
  urlVariable: string;
  /** At least 6 × its consumer's timeout (AWS's advice for Lambda consumers). */
  visibilityTimeoutSeconds: number;
  /** Receives before the dead-letter queue, from the deployment's settings. */
  maxReceiveCount: (settings: Pick<SettingValues, 'webhookRetryDelaysSeconds'>) => number;
}

export const QUEUES = {
  webhooks: {
    name: 'webhooks',
    urlVariable: 'WEBHOOK_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    // The first attempt and one per retry delay: the receive after the last goes to the DLQ.
    maxReceiveCount: (settings) => settings.webhookRetryDelaysSeconds.length + 1,
  },
  emails: {
    name: 'emails',
    urlVariable: 'EMAIL_QUEUE_URL',
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: () => 5,
  },
} as const satisfies Record<string, QueueDefinition>;
