import { nameBasedUuid } from '@feedback/kit-core';
import type { Producer } from '@feedback/kit-kafka';
import { SmsStatusChanged } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { StatusEvents } from '../../../shared/ports.js';
import type { ReportEvents } from '../../../status/ports.js';
import type { SmsMessage } from '../../../shared/domain/sms-message.js';

const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.messaging.v1.SmsStatusChanged';

/**
 * `sms.status`, keyed by phone; one event id per (message, status, attempt), so a retry repeats it.
 * A status a delivery report set (delivered, or failed with the report's error), which a hand-over
 * finishing after the report reads back and publishes too, carries the report's own event id: one
 * event per message and status, whichever path publishes it.
 */
export function kafkaStatusEvents(producer: Producer, topic: string): StatusEvents {
  return {
    async changedMany(msgs: SmsMessage[]) {
      if (msgs.length > 0)
        await producer.publish(
          topic,
          msgs.map((m) =>
            statusMessage(m, isReported(m) ? reportEventId(m) : `sms.status:${nameBasedUuid(m.id)}:${m.status}:${m.attempts}`),
          ),
        );
    },
  };
}

/**
 * `sms.status` of statuses set by delivery reports: one event id per (message, status), so the
 * relay's or another replica's repeat is the same event to the webhooks service.
 */
export function kafkaReportEvents(producer: Producer, topic: string): ReportEvents {
  return {
    async reported(msgs: SmsMessage[]) {
      if (msgs.length > 0)
        await producer.publish(
          topic,
          msgs.map((m) => statusMessage(m, reportEventId(m))),
        );
    },
  };
}

const isReported = (m: SmsMessage) => m.status === 'delivered' || (m.status === 'failed' && m.deliveryError !== undefined);
const reportEventId = (m: SmsMessage) => `sms.status:${nameBasedUuid(m.id)}:${m.status}`;

function statusMessage(m: SmsMessage, eventId: string) {
  const value = SmsStatusChanged.encode({
    messageId: m.id,
    sharingId: m.sharingId,
    accountId: m.accountId,
    phone: m.phone,
    status: m.status,
    error: m.error ?? '',
    at: m.updatedAt.toISOString(),
    ...(m.deliveryError && {
      errorDetail: {
        status: m.deliveryError.status,
        code: m.deliveryError.code ?? '',
        description: m.deliveryError.description ?? '',
      },
    }),
  }).finish();
  // The event id is logged by consumers: the message id (it holds the phone) as its name-based UUID.
  return {
    key: m.phone,
    value: Buffer.from(value),
    eventId,
    contentType: CONTENT_TYPE,
  };
}
