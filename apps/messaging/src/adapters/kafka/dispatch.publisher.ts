import type { OutgoingMessage, Producer } from '@feedback/kit-kafka';
import { SmsDispatch } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { DispatchPublisher } from '../../domain/ports.js';
import type { DispatchEvent } from '../../domain/sharing.js';

const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.messaging.v1.SmsDispatch';
/**
 * Bytes of events per produce request: below the broker's 1 MB default for a partition's batch
 * whatever the keys spread, so a 5,000-phone sharing without attributes (~150 bytes an event)
 * is one request, and one with large attributes a few.
 */
const REQUEST_BYTES = 900 * 1024;

/**
 * Protobuf `SmsDispatch` keyed by phone; the event id is the message id, so a repeated publish is
 * recognisable. Events are encoded as they are added, requests bounded by REQUEST_BYTES.
 */
export function kafkaDispatchPublisher(producer: Producer, topic: string): DispatchPublisher {
  return {
    batch() {
      const requests: OutgoingMessage[][] = [[]];
      let bytes = 0;
      return {
        add(events) {
          for (const e of events) {
            const encoded = encodeDispatch(e);
            const value = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
            if (requests.at(-1)!.length > 0 && bytes + value.length > REQUEST_BYTES) {
              requests.push([]);
              bytes = 0;
            }
            requests.at(-1)!.push({
              key: e.recipient.phone,
              value,
              eventId: `sms.dispatch:${e.sharingId}.${e.recipient.phone}`,
              contentType: CONTENT_TYPE,
            });
            bytes += value.length;
          }
        },
        async send() {
          for (const request of requests) if (request.length > 0) await producer.publish(topic, request);
        },
      };
    },
  };
}

function encodeDispatch(e: DispatchEvent): Uint8Array {
  return SmsDispatch.encode({
    sharingId: e.sharingId,
    accountId: e.accountId,
    campaignId: e.campaignId,
    phone: e.recipient.phone,
    inputPhone: e.recipient.input,
    customAttributes: e.recipient.attributes,
    builtInResponses: e.recipient.builtInResponses,
    reminder: e.reminder,
  }).finish();
}

export function decodeDispatch(value: Buffer): DispatchEvent {
  const d = SmsDispatch.decode(value);
  if (!d.sharingId || !d.accountId || !d.campaignId || !/^\d{6,15}$/.test(d.phone))
    throw new Error('sms.dispatch event lacks sharing, account, campaign or a normalized phone');
  if (d.reminder > 3) throw new Error(`sms.dispatch event names reminder ${d.reminder}; a campaign has at most 3`);
  return {
    sharingId: d.sharingId,
    accountId: d.accountId,
    campaignId: d.campaignId,
    recipient: { phone: d.phone, input: d.inputPhone, attributes: d.customAttributes, builtInResponses: d.builtInResponses },
    reminder: d.reminder,
  };
}
