import { describe, expect, it } from 'vitest';
import { applyDeliveryReport, deliveryStatusFor, KANNEL_DELIVERY_RULE } from '../src/status/domain/delivery-report.js';
import { RetriableSendError } from '../src/dispatch/domain/dispatch-results.js';
import { sendOne, MemoryMessages, MemoryReportEvents, ScriptedProvider } from './fakes/memory-deps.js';

const clock = { now: () => new Date('2026-11-23T10:00:00Z') };
const cmd = { accountId: 'a', sharingId: 's1', campaignId: 'c', phone: '905321234567', text: 'hi' };

describe('sending one SMS at most once', () => {
  it('hands it over once, however often the event comes', async () => {
    const messages = new MemoryMessages();
    const provider = new ScriptedProvider([{ outcome: 'accepted', providerMessageId: 'p1' }]);
    const outcomes = await Promise.all([sendOne({ messages, provider, clock }, cmd), sendOne({ messages, provider, clock }, cmd)]);
    expect(outcomes.sort()).toEqual(['already_handled', 'sent']);
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]).toMatchObject({ messageId: 's1.905321234567', to: '905321234567', text: 'hi' });
    expect(messages.items.get('s1.905321234567')).toMatchObject({ status: 'sent', providerMessageId: 'p1' });
  });

  it('a retriable refusal throws for the consumer to retry and lets the next attempt send', async () => {
    const messages = new MemoryMessages();
    const provider = new ScriptedProvider([{ outcome: 'rejected', retriable: true, reason: 'ECONNREFUSED' }, { outcome: 'accepted' }]);
    await expect(sendOne({ messages, provider, clock }, cmd)).rejects.toBeInstanceOf(RetriableSendError);
    expect(messages.items.get('s1.905321234567')?.status).toBe('retryable');
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('sent');
    expect(messages.items.get('s1.905321234567')?.attempts).toBe(2);
  });

  it('a maybe-sent outcome (timeout, adapter error) is never sent again', async () => {
    for (const result of [{ outcome: 'unknown' as const, reason: 'timeout' }, new Error('boom')]) {
      const messages = new MemoryMessages();
      const provider = new ScriptedProvider([result, { outcome: 'accepted' }]);
      expect(await sendOne({ messages, provider, clock }, cmd)).toBe('unknown');
      expect(await sendOne({ messages, provider, clock }, cmd)).toBe('already_handled');
      expect(provider.calls).toHaveLength(1);
    }
  });

  it('a final refusal fails the message without retry', async () => {
    const messages = new MemoryMessages();
    const provider = new ScriptedProvider([{ outcome: 'rejected', retriable: false, reason: 'HTTP 403' }]);
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('failed');
    expect(messages.items.get('s1.905321234567')).toMatchObject({ status: 'failed', error: 'HTTP 403' });
  });
});

describe('delivery reports', () => {
  it('maps Kannel codes: 1 delivered, 2 and 16 failed, others progress', () => {
    expect(deliveryStatusFor('1', KANNEL_DELIVERY_RULE)).toBe('delivered');
    expect(deliveryStatusFor('2', KANNEL_DELIVERY_RULE)).toBe('failed');
    expect(deliveryStatusFor(' 16 ', KANNEL_DELIVERY_RULE)).toBe('failed');
    expect(deliveryStatusFor('8', KANNEL_DELIVERY_RULE)).toBeNull();
    expect(deliveryStatusFor('4', KANNEL_DELIVERY_RULE)).toBeNull();
  });

  it('applies a final status once; progress and unknown messages change nothing', async () => {
    const messages = new MemoryMessages();
    await sendOne({ messages, provider: new ScriptedProvider([{ outcome: 'accepted' }]), clock }, cmd);
    const deps = { messages, reportEvents: new MemoryReportEvents(), clock };
    const id = 's1.905321234567';
    expect(await applyDeliveryReport(deps, { messageId: id, code: '8' }, KANNEL_DELIVERY_RULE)).toBe('progress');
    expect(messages.items.get(id)?.status).toBe('sent');
    expect(await applyDeliveryReport(deps, { messageId: id, code: '2' }, KANNEL_DELIVERY_RULE)).toBe('applied');
    expect(await applyDeliveryReport(deps, { messageId: id, code: '1' }, KANNEL_DELIVERY_RULE)).toBe('ignored');
    expect(messages.items.get(id)?.status).toBe('failed');
    expect(await applyDeliveryReport(deps, { messageId: 'nope', code: '1' }, KANNEL_DELIVERY_RULE)).toBe('unknown_message');
  });
});
