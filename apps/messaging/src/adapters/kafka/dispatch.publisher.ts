import type { Producer } from '@feedback/kit-kafka';
import { SmsDispatch } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { DispatchPublisher } from '../../domain/ports.js';
import type { DispatchEvent } from '../../domain/sharing.js';

const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.messaging.v1.SmsDispatch';
/** Events per produce request: 10,000 recipients make 20 requests, each well under the broker's 1 MB default. */
const BATCH = 500;

/** Protobuf `SmsDispatch` keyed by phone; the event id is the message id, so a repeated publish is recognisable. */
export function kafkaDispatchPublisher(producer: Producer, topic: string): DispatchPublisher {
  return {
    async publish(events: DispatchEvent[]) {
      for (let i = 0; i < events.length; i += BATCH) {
        await producer.publish(
          topic,
          events.slice(i, i + BATCH).map((e) => ({
            key: e.recipient.phone,
            value: Buffer.from(encodeDispatch(e)),
            eventId: `sms.dispatch:${e.sharingId}.${e.recipient.phone}`,
            contentType: CONTENT_TYPE,
          })),
        );
      }
    },
  };
}

export function encodeDispatch(e: DispatchEvent): Uint8Array {
  return SmsDispatch.encode({
    sharingId: e.sharingId,
    accountId: e.accountId,
    campaignId: e.campaignId,
    phone: e.recipient.phone,
    inputPhone: e.recipient.input,
    customAttributes: e.recipient.attributes,
    builtInResponses: e.recipient.builtInResponses,
  }).finish();
}

export function decodeDispatch(value: Buffer): DispatchEvent {
  const d = SmsDispatch.decode(value);
  if (!d.sharingId || !d.accountId || !d.campaignId || !/^\d{6,15}$/.test(d.phone))
    throw new Error('sms.dispatch event lacks sharing, account, campaign or a normalized phone');
  return {
    sharingId: d.sharingId,
    accountId: d.accountId,
    campaignId: d.campaignId,
    recipient: { phone: d.phone, input: d.inputPhone, attributes: d.customAttributes, builtInResponses: d.builtInResponses },
  };
}
