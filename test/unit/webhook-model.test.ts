import { describe, expect, it } from 'vitest';
import {
  answerWords,
  attemptError,
  CANCEL_WORDS,
  payloadText,
  STATUS_WORDS,
  statusWords,
} from '#app/webhook-model.ts';
import { CANCEL_REASONS, DELIVERY_STATUSES } from '#domain/webhook-delivery.ts';
import { webhookPayloadObject } from '#domain/webhook-payload.ts';

describe('the webhook screen in words', () => {
  it('says every delivery status and cancel reason in words, never the key', () => {
    for (const status of DELIVERY_STATUSES) expect(STATUS_WORDS[status]).not.toBe(status);
    for (const reason of CANCEL_REASONS) expect(CANCEL_WORDS[reason]).not.toContain('_');
    expect(statusWords({ status: 'cancelled', cancelReason: 'webhook_removed' })).toBe(
      'Cancelled: the webhook was disconnected',
    );
    expect(statusWords({ status: 'delivered', cancelReason: null })).toBe('Delivered');
  });

  it('says what an attempt got back: a status with its meaning, or why there was none', () => {
    expect(answerWords({ responseStatus: 500, error: null, durationMs: 120.4 })).toBe(
      '500, a server error, tried again · 120 ms',
    );
    expect(answerWords({ responseStatus: 204, error: null, durationMs: 8 })).toBe(
      '204, accepted · 8 ms',
    );
    expect(answerWords({ responseStatus: 404, error: null, durationMs: 8 })).toBe(
      '404, refused · 8 ms',
    );
    expect(
      answerWords({
        responseStatus: null,
        error: 'timeout: no response within 10000 ms',
        durationMs: 10_000,
      }),
    ).toBe('No answer in time · 10,000 ms');
    expect(attemptError('network: connect ECONNREFUSED 127.0.0.1:9')).toEqual({
      words: 'Could not connect',
      detail: 'connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(attemptError('something new')).toEqual({ words: 'No answer', detail: 'something new' });
  });
});

describe('the body a delivery was sent with', () => {
  it('is the body the worker builds for the submission, pretty-printed, with the attempt’s time', () => {
    const submission = {
      id: 'sub-1',
      formId: 'form-1',
      createdAt: '2026-11-26T10:00:00.000Z',
      isTest: false,
      isSpam: false,
      data: { email: 'ada@example.com', message: '<b>"Hi"</b>\n', _invalid: '[]' },
    };
    const sentAt = '2026-11-26T10:00:05.000Z';
    const text = payloadText(submission, sentAt);
    const worker = webhookPayloadObject(
      {
        ...submission,
        meta: { userAgent: '', referrer: '' },
        read: false,
        starred: false,
      } as never,
      new Date(sentAt),
      false,
    );
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(worker)));
    expect(text).toContain('\n  "data": {');
    expect(text).not.toContain('_invalid');
  });
});
