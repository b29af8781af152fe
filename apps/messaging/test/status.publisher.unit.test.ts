import { nameBasedUuid } from '@feedback/kit-core';
import type { OutgoingMessage, Producer } from '@feedback/kit-kafka';
import { describe, expect, it } from 'vitest';
import { SmsStatusChanged } from '@feedback/proto/feedback/messaging/v1/messaging';
import { kafkaReportEvents, kafkaStatusEvents } from '../src/dispatch/adapters/kafka/status.publisher.js';
import type { SmsMessage } from '../src/shared/domain/sms-message.js';

describe('sms.status events', () => {
  it('carry an event id per (message, status, attempt) without the phone, which consumers log', async () => {
    const sent: OutgoingMessage[] = [];
    const producer = { publish: async (_t: string, ms: OutgoingMessage[]) => void sent.push(...ms) } as unknown as Producer;
    const at = new Date('2026-11-28T10:00:00Z');
    const m = {
      id: 'sh-1.905321234567',
      accountId: 'acc',
      sharingId: 'sh-1',
      campaignId: 'c',
      phone: '905321234567',
      text: 't',
      provider: 'outbox',
      status: 'sent',
      attempts: 1,
      providerMessageId: null,
      error: null,
      createdAt: at,
      updatedAt: at,
    } as SmsMessage;
    await kafkaStatusEvents(producer, 'sms.status').changedMany([m, m]);
    expect(sent[0]!.eventId).toBe(`sms.status:${nameBasedUuid('sh-1.905321234567')}:sent:1`);
    expect(sent[1]!.eventId).toBe(sent[0]!.eventId);
    expect(sent[0]!.eventId).not.toContain('905321234567');
  });

  it("of a delivery report carry one event id per (message, status), whatever the attempt, and the report's error", async () => {
    const sent: OutgoingMessage[] = [];
    const producer = { publish: async (_t: string, ms: OutgoingMessage[]) => void sent.push(...ms) } as unknown as Producer;
    const at = new Date('2026-11-28T10:00:00Z');
    const m = {
      id: 'sh-1.905321234567',
      accountId: 'acc',
      sharingId: 'sh-1',
      campaignId: 'c',
      phone: '905321234567',
      text: 't',
      provider: 'http',
      status: 'failed',
      attempts: 2,
      providerMessageId: null,
      error: null,
      deliveryError: { status: '2', code: '001', description: null },
      createdAt: at,
      updatedAt: at,
    } as SmsMessage;
    await kafkaReportEvents(producer, 'sms.status').reported([m, { ...m, attempts: 3 }]);
    expect(sent.map((e) => e.eventId)).toEqual([`sms.status:${nameBasedUuid(m.id)}:failed`, `sms.status:${nameBasedUuid(m.id)}:failed`]);
    // A hand-over that finished after the report reads the record back and publishes it too: the same event.
    await kafkaStatusEvents(producer, 'sms.status').changedMany([m, { ...m, status: 'delivered', deliveryError: undefined }]);
    expect(sent[2]!.eventId).toBe(sent[0]!.eventId);
    expect(sent[3]!.eventId).toBe(`sms.status:${nameBasedUuid(m.id)}:delivered`);
    expect(SmsStatusChanged.decode(sent[0]!.value as Buffer)).toMatchObject({
      status: 'failed',
      error: '',
      errorDetail: { status: '2', code: '001', description: '' },
    });
  });
});
