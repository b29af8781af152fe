import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../src/domain/delivery.use-cases.js';
import type { Attempt } from '../src/domain/webhook.js';

const at = new Date('2026-11-27T10:00:00.000Z');
const attempt = (statusCode: number, error = ''): Attempt => ({ at, statusCode, error, latencyMs: 5, responseBody: '' });
const settings = { retrySchedule: [5_000, 30_000] };

describe('what an attempt means for its delivery', () => {
  it('any 2xx is a success', () => {
    for (const code of [200, 201, 204, 299])
      expect(outcomeOf({ retryIndex: 1 }, attempt(code), settings, 0.5)).toMatchObject({
        status: 'succeeded',
        nextAttemptAt: null,
        endpoint: 'healthy',
      });
  });

  it('410 fails the delivery and disables the endpoint', () => {
    expect(outcomeOf({ retryIndex: 0 }, attempt(410), settings, 0.5)).toMatchObject({
      status: 'failed',
      endpoint: 'gone',
      note: expect.stringMatching(/410/),
    });
  });

  it('a failure (status, redirect or no answer) is retried after the next step of the schedule', () => {
    for (const a of [attempt(500), attempt(301), attempt(404), attempt(0, 'timeout')]) {
      const o = outcomeOf({ retryIndex: 0 }, a, settings, 0.5);
      expect(o).toMatchObject({ status: 'pending', retryIndex: 1, endpoint: 'failing' });
      expect(o.nextAttemptAt).toEqual(new Date(at.getTime() + 5_000));
    }
    expect(outcomeOf({ retryIndex: 1 }, attempt(503), settings, 0.5).nextAttemptAt).toEqual(new Date(at.getTime() + 30_000));
  });

  it('after the last step the delivery fails', () => {
    expect(outcomeOf({ retryIndex: 2 }, attempt(500), settings, 0.5)).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      endpoint: 'failing',
    });
  });
});
