import { describe, expect, it } from 'vitest';
import { PoisonMessageError, type ConsumedMessage } from '@feedback/kit-kafka';
import { SharingCompleted } from '@feedback/proto/feedback/messaging/v1/messaging';
import { eventOf } from '../src/adapters/kafka/events.consumer.js';
import { bodyOf, fileExpiredEvent, sharingCompletedEvent, smsStatusEvent, surveyAnsweredEvent } from '../src/domain/event-mapping.js';

const now = new Date('2026-11-27T10:00:00.000Z');
const sms = { messageId: 'm1', sharingId: 's1', accountId: 'acc', phone: '905321234567', error: '', at: '2026-11-27T09:59:00.000Z' };

describe('event mapping', () => {
  it.each([
    ['delivered', 'sms.delivered'],
    ['failed', 'sms.failed'],
    ['opted_out', 'sms.opted_out'],
  ])('sms.status %s is %s', (status, type) => {
    const event = smsStatusEvent('sms.status:m1:x', { ...sms, status }, now);
    expect(event).toMatchObject({ id: 'sms.status:m1:x', accountId: 'acc', type, timestamp: new Date(sms.at) });
    expect(event?.data).toMatchObject({ message_id: 'm1', sharing_id: 's1', phone: '905321234567', status });
  });

  it("sms.failed carries the delivery report's error, or our reason, as {status, code, description}", () => {
    const reported = smsStatusEvent(
      'sms.status:m1:failed',
      { ...sms, status: 'failed', errorDetail: { status: '2', code: '001', description: '' } },
      now,
    );
    expect(reported?.data.error).toEqual({ status: '2', code: '001', description: null });
    const refused = smsStatusEvent('e', { ...sms, status: 'failed', error: 'refused: 400' }, now);
    expect(refused?.data.error).toEqual({ status: null, code: null, description: 'refused: 400' });
    expect(smsStatusEvent('e', { ...sms, status: 'delivered' }, now)?.data.error).toBeNull();
  });

  it.each(['sent', 'queued', 'cancelled', 'unknown', ''])('sms.status %s raises no webhook', (status) => {
    expect(smsStatusEvent('e', { ...sms, status }, now)).toBeNull();
  });

  it('survey.answered carries the answers keyed by question key, as the REST API does, and the send context', () => {
    const event = surveyAnsweredEvent(
      'survey.answered:r1',
      {
        id: 'r1',
        accountId: 'acc',
        flowId: 'f1',
        channelId: 'c1',
        nodeId: 'n1',
        customerId: 'cu1',
        answers: [
          { questionKey: 'nps', optionKeys: [], number: 9 },
          { questionKey: 'pick', optionKeys: ['a'] },
          { questionKey: 'comment', optionKeys: [], text: 'Great' },
        ],
        builtInResponses: { language: 'en' },
        answeredAt: '2026-11-27T09:00:00.000Z',
        context: { campaignId: 'camp', sharingId: 'sh', messageId: 'sh.905321234567', customAttributes: { order_id: 'A-1' } },
      },
      now,
    );
    expect(event.type).toBe('survey.answered');
    expect(JSON.parse(bodyOf(event))).toEqual({
      type: 'survey.answered',
      timestamp: '2026-11-27T09:00:00.000Z',
      data: {
        response_id: 'r1',
        flow_id: 'f1',
        channel_id: 'c1',
        node_id: 'n1',
        customer_id: 'cu1',
        answered_at: '2026-11-27T09:00:00.000Z',
        answers: { nps: 9, pick: ['a'], comment: 'Great' },
        built_in_responses: { language: 'en' },
        campaign_id: 'camp',
        sharing_id: 'sh',
        message_id: 'sh.905321234567',
        custom_attributes: { order_id: 'A-1' },
      },
    });
  });

  it('survey.answered of a response stored before the send context was kept names none', () => {
    const event = surveyAnsweredEvent(
      'e',
      {
        id: 'r',
        accountId: 'a',
        flowId: 'f',
        channelId: 'c',
        nodeId: 'n',
        customerId: 'cu',
        answers: [],
        builtInResponses: {},
        answeredAt: '',
      },
      now,
    );
    expect(event.data).toMatchObject({ answers: {}, campaign_id: null, sharing_id: null, message_id: null, custom_attributes: null });
  });

  it('file.expired, with the time of now when the event has none', () => {
    const event = fileExpiredEvent(
      'file.expired:f1',
      { fileId: 'f1', accountId: 'acc', directoryId: 'd1', filename: 'a.csv', expiredAt: '' },
      now,
    );
    expect(event).toMatchObject({ type: 'file.expired', accountId: 'acc', timestamp: now, data: { file_id: 'f1', filename: 'a.csv' } });
  });

  const completed = {
    sharingId: 's1',
    accountId: 'acc',
    campaignId: 'c1',
    accepted: 4,
    counts: { scheduled: 0, queued: 0, sending: 0, sent: 1, delivered: 1, failed: 1, optedOut: 1, cancelled: 0, other: 0 },
    completedAt: '2026-11-27T09:58:00.000Z',
  };

  it('sharing.completed carries the sharing, its campaign, accepted and the settled counts', () => {
    const event = sharingCompletedEvent('sharing.completed:s1', completed, now);
    expect(event).toMatchObject({ id: 'sharing.completed:s1', accountId: 'acc', type: 'sharing.completed' });
    expect(JSON.parse(bodyOf(event))).toEqual({
      type: 'sharing.completed',
      timestamp: '2026-11-27T09:58:00.000Z',
      data: {
        sharing_id: 's1',
        campaign_id: 'c1',
        accepted: 4,
        counts: { sent: 1, delivered: 1, failed: 1, opted_out: 1, cancelled: 0, other: 0 },
        completed_at: '2026-11-27T09:58:00.000Z',
      },
    });
  });

  it('the consumer decodes a sharing.completed record of its topic, and dead-letters one without an account', () => {
    const topics = { surveyAnswered: 'sa', smsStatus: 'ss', fileExpired: 'fe', sharingCompleted: 'sc' };
    const record = (value: Uint8Array): ConsumedMessage => ({
      key: 's1',
      topic: 'sc',
      partition: 0,
      offset: '7',
      value: Buffer.from(value),
      headers: {},
      eventId: 'sharing.completed:s1',
    });
    const event = eventOf(topics, record(SharingCompleted.encode(completed).finish()), now);
    expect(event).toMatchObject({ id: 'sharing.completed:s1', type: 'sharing.completed', data: { accepted: 4 } });
    expect(() => eventOf(topics, record(SharingCompleted.encode({ ...completed, accountId: '' }).finish()), now)).toThrow(
      PoisonMessageError,
    );
  });
});
