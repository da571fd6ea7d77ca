/**
 * The service's queues as plain data, read by the CDK stack and the local
 * bootstrap alike. Each has a dead-letter queue; a message that fails
 * `maxReceiveCount` times lands there for an operator.
 */
export interface QueueDefinition {
  /** Logical name; the local queue is named `<prefix>-<name>`. */
  name: string;
  /** Environment variable that carries the queue URL to functions. */
  urlVariable: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
}

export const QUEUES = {
  webhooks: {
    name: 'webhooks',
    urlVariable: 'WEBHOOK_QUEUE_URL',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 10,
  },
  emails: {
    name: 'emails',
    urlVariable: 'EMAIL_QUEUE_URL',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
  },
} as const satisfies Record<string, QueueDefinition>;
