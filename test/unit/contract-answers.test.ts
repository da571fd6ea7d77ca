import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ResponseBody } from '#contracts/responses.ts';
import { defineContract } from '#http/contract.ts';
import { anonymousRoute, managementRoute } from '#http/management-route.ts';
import { errorBody, json } from '#http/respond.ts';

/**
 * A handler's answer is typed from its contract: `npm run typecheck` checks
 * this file, and each `@ts-expect-error` fails the typecheck if the wrong
 * answer below it ever type-checks.
 */

const contract = defineContract({
  tag: 'Test',
  answers: [
    { status: 200, description: 'The webhook.', body: 'Webhook' },
    { status: 204, description: 'Nothing to say.', body: null },
  ],
  errors: ['conflict'],
});

const webhook: ResponseBody<'Webhook'> = {
  formId: 'f1',
  url: 'https://example.com/hook',
  secret: 'whsec_x',
  state: 'active',
  lastError: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

// The handlers are only built, never called: what matters is that they type-check or not.
const fits = [
  managementRoute(contract, async () => json(200, webhook)),
  managementRoute(contract, async () => json(409, errorBody('conflict', 'It changed'))),
  anonymousRoute(contract, async () => json(200, { ...webhook, state: 'failing' as const })),
];

const misfits = [
  // @ts-expect-error A body of another shape for the status (no secret, a state it cannot be).
  managementRoute(contract, async () => json(200, { ...webhook, secret: undefined })),
  // @ts-expect-error A state outside the shape's enum.
  managementRoute(contract, async () => json(200, { ...webhook, state: 'paused' })),
  // @ts-expect-error A status the contract does not answer.
  managementRoute(contract, async () => json(201, webhook)),
  // @ts-expect-error The contract's body under another status.
  anonymousRoute(contract, async () => json(204, webhook)),
  // @ts-expect-error An error status with a body that is not the envelope.
  managementRoute(contract, async () => json(409, webhook)),
];

describe('typed answers', () => {
  it('wraps the handlers whatever their answer type: the check is the typecheck', () => {
    const handlers: ((event: APIGatewayProxyEvent, context: Context) => unknown)[] = [
      ...fits,
      ...misfits,
    ];
    expect(handlers.every((handler) => typeof handler === 'function')).toBe(true);
  });
});
