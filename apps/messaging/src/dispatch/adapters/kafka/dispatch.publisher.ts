import { nameBasedUuid } from '@feedback/kit-core';
import type { OutgoingMessage, Producer } from '@feedback/kit-kafka';
import { SmsDispatch } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { DispatchPublisher } from '../../../shared/ports.js';
import type { DispatchEvent } from '../../../shared/domain/sharing.js';
import { messageId } from '../../../shared/domain/sms-message.js';

const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.messaging.v1.SmsDispatch';
/**
 * Bytes of events per produce request: below the broker's 1 MB default for a partition's batch
 * whatever the keys spread, so a 5,000-phone sharing without attributes (~150 bytes an event)
 * is one request, and one with large attributes a few.
 */
const REQUEST_BYTES = 900 * 1024;

/**
 * The small sharings' lane (docs/decisions.md "Fair dispatch between accounts"): a publish of at
 * most `maxRecipients` events (a sharing, or a scheduled step's slice) goes to `topic`, which its
 * own consumer reads, so it never waits behind the partitions' backlog of another account's
 * large sharing. 0: every event goes to the main topic.
 */
export interface PriorityLane {
  topic: string;
  maxRecipients: number;
}

/**
 * Protobuf `SmsDispatch` keyed by phone. The event id is a name-based UUID of the message id (the
 * same for a repeated publish, so it stays recognisable), never the message id itself, which holds
 * the phone and would reach logs. Events are encoded as they are added, requests bounded by
 * REQUEST_BYTES; the topic is chosen when the lot is sent, by its size.
 */
export function kafkaDispatchPublisher(producer: Producer, topic: string, priority?: PriorityLane): DispatchPublisher {
  return {
    batch() {
      const requests: OutgoingMessage[][] = [[]];
      let bytes = 0;
      let count = 0;
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
              eventId: dispatchEventId(e),
              contentType: CONTENT_TYPE,
            });
            bytes += value.length;
            count++;
          }
        },
        async send() {
          const to = priority && count <= priority.maxRecipients ? priority.topic : topic;
          for (const request of requests) if (request.length > 0) await producer.publish(to, request);
        },
      };
    },
  };
}

/** `sms.dispatch:<UUID of the message id>`: stable across repeats, without the phone. */
export const dispatchEventId = (e: DispatchEvent) => `sms.dispatch:${nameBasedUuid(messageId(e.sharingId, e.recipient.phone, e.reminder))}`;

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
