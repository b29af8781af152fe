import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { attemptDelivery, claimDue } from '../src/domain/delivery.use-cases.js';
import { createEndpoint, rotateSecret, sendTestEvent } from '../src/domain/endpoint.use-cases.js';
import type { SendResult } from '../src/domain/ports.js';
import { memoryDeps } from './fakes/memory-deps.js';

const answer = (statusCode: number): SendResult => ({ statusCode, error: '', latencyMs: 1, responseBody: '' });
const HOUR = 3_600_000;

/** What the sender does with one due delivery: claim it, attempt it; false when none was due. */
async function deliverNextDue(deps: Parameters<typeof attemptDelivery>[0]): Promise<boolean> {
  const { claimId, deliveries } = await claimDue(deps, 1);
  if (deliveries.length === 0) return false;
  await attemptDelivery(deps, deliveries[0]!, claimId);
  return true;
}

describe('sending a delivery', () => {
  it('an endpoint failing for 24 hours is disabled, and its delivery log says so', async () => {
    const now = { value: new Date('2026-11-27T00:00:00.000Z') };
    const { deps, endpoints, deliveries } = memoryDeps(now, () => answer(500));
    deps.settings = { ...deps.settings, retrySchedule: Array(20).fill(6 * HOUR) };
    const { endpoint } = await createEndpoint(deps, 'acc', { url: 'https://a.example/h', events: ['survey.answered'], description: '' });
    const d = await sendTestEvent(deps, 'acc', endpoint.id);
    // 0 h, ~6 h, ~12 h, ~18 h: failing, still enabled.
    for (let i = 0; i < 4; i++) {
      expect(await deliverNextDue(deps)).toBe(true);
      expect(endpoints.get(endpoint.id)!.enabled).toBe(true);
      now.value = deliveries.get(d.id)!.nextAttemptAt!;
    }
    expect(endpoints.get(endpoint.id)!.failingSince).toEqual(new Date('2026-11-27T00:00:00.000Z'));
    now.value = new Date(now.value.getTime() + 6 * HOUR);
    await deliverNextDue(deps);
    expect(endpoints.get(endpoint.id)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/failing continuously since 2026-11-27T00:00:00.000Z/),
    });
    expect(deliveries.get(d.id)).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      note: expect.stringMatching(/^endpoint disabled/),
    });
  });

  it('a success in between starts the 24 hours again', async () => {
    const now = { value: new Date('2026-11-27T00:00:00.000Z') };
    let code = 500;
    const { deps, endpoints } = memoryDeps(now, () => answer(code));
    const { endpoint } = await createEndpoint(deps, 'acc', { url: 'https://a.example/h', events: ['survey.answered'], description: '' });
    await sendTestEvent(deps, 'acc', endpoint.id);
    await deliverNextDue(deps);
    expect(endpoints.get(endpoint.id)!.failingSince).not.toBeNull();
    code = 200;
    now.value = new Date(now.value.getTime() + HOUR);
    await deliverNextDue(deps);
    expect(endpoints.get(endpoint.id)).toMatchObject({ enabled: true, failingSince: null });
  });

  it('a disabled endpoint gets nothing: its pending delivery ends with a note', async () => {
    const now = { value: new Date() };
    const { deps, deliveries, sent } = memoryDeps(now, () => answer(200));
    const { endpoint } = await createEndpoint(deps, 'acc', { url: 'https://a.example/h', events: ['survey.answered'], description: '' });
    const d = await sendTestEvent(deps, 'acc', endpoint.id);
    await deps.endpoints.disable(endpoint.id, 'the receiver answered 410 Gone', now.value);
    expect(await deliverNextDue(deps)).toBe(true);
    expect(sent).toHaveLength(0);
    expect(deliveries.get(d.id)).toMatchObject({ status: 'failed', attempts: [], note: expect.stringMatching(/disabled.*410/) });
    expect(await deliverNextDue(deps)).toBe(false);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const now = { value: new Date() };
    const { deps, sent } = memoryDeps(now, () => answer(200));
    const { endpoint, secret: old } = await createEndpoint(deps, 'acc', {
      url: 'https://a.example/h',
      events: ['survey.answered'],
      description: '',
    });
    const { secret: fresh } = await rotateSecret(deps, 'acc', endpoint.id);
    await sendTestEvent(deps, 'acc', endpoint.id);
    await deliverNextDue(deps);
    for (const s of [old, fresh]) expect(new Webhook(s).verify(sent[0]!.body, sent[0]!.headers)).toMatchObject({ type: 'webhook.test' });

    now.value = new Date(now.value.getTime() + 24 * HOUR + 1);
    await sendTestEvent(deps, 'acc', endpoint.id);
    await deliverNextDue(deps);
    const late = sent[1]!;
    expect(late.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    // The receiver's clock at the time of signing: the library checks the timestamp against it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(now.value);
      expect(new Webhook(fresh).verify(late.body, late.headers)).toMatchObject({ type: 'webhook.test' });
      expect(() => new Webhook(old).verify(late.body, late.headers)).toThrow(/signature/i);
    } finally {
      vi.useRealTimers();
    }
  });
});
