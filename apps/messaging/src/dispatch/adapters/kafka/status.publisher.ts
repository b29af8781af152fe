import { nameBasedUuid } from '@feedback/kit-core';
import type { Producer } from '@feedback/kit-kafka';
import { SmsStatusChanged } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { StatusEvents } from '../../../shared/ports.js';
import type { SmsMessage } from '../../../shared/domain/sms-message.js';

const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.messaging.v1.SmsStatusChanged';

/** `sms.status`, keyed by phone; one event id per (message, status, attempt), so a retry repeats it. */
export function kafkaStatusEvents(producer: Producer, topic: string): StatusEvents {
  return {
    async changedMany(msgs: SmsMessage[]) {
      if (msgs.length > 0) await producer.publish(topic, msgs.map(statusMessage));
    },
  };
}

function statusMessage(m: SmsMessage) {
  const value = SmsStatusChanged.encode({
    messageId: m.id,
    sharingId: m.sharingId,
    accountId: m.accountId,
    phone: m.phone,
    status: m.status,
    error: m.error ?? '',
    at: m.updatedAt.toISOString(),
  }).finish();
  // The event id is logged by consumers: the message id (it holds the phone) as its name-based UUID.
  return {
    key: m.phone,
    value: Buffer.from(value),
    eventId: `sms.status:${nameBasedUuid(m.id)}:${m.status}:${m.attempts}`,
    contentType: CONTENT_TYPE,
  };
}
