import type { Producer } from '@feedback/kit-kafka';
import { SharingCompleted } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { CompletionEvents, SharingCompletion } from '../../ports.js';

const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.messaging.v1.SharingCompleted';

/**
 * `sharing.completed`, keyed by sharing id. One event id per sharing, `sharing.completed:<sharing
 * id>`, whoever raises it and however often (replicas, redelivered batches, a cancel): consumers
 * dedupe by it.
 */
export function kafkaCompletionEvents(producer: Producer, topic: string): CompletionEvents {
  return {
    async completed(c: SharingCompletion) {
      await producer.publish(topic, [
        { key: c.sharingId, value: Buffer.from(encodeCompletion(c)), eventId: completionEventId(c.sharingId), contentType: CONTENT_TYPE },
      ]);
    },
  };
}

export const completionEventId = (sharingId: string) => `sharing.completed:${sharingId}`;

export function encodeCompletion(c: SharingCompletion): Uint8Array {
  return SharingCompleted.encode({
    sharingId: c.sharingId,
    accountId: c.accountId,
    campaignId: c.campaignId,
    accepted: c.accepted,
    counts: {
      scheduled: 0,
      queued: 0,
      sending: 0,
      sent: c.counts.sent,
      delivered: c.counts.delivered,
      failed: c.counts.failed,
      optedOut: c.counts.opted_out,
      cancelled: c.counts.cancelled,
      // As GET /v1/sms_sharings/{id} counts it: `other` holds unknown (retryable is never settled).
      other: c.counts.unknown,
    },
    completedAt: c.completedAt.toISOString(),
  }).finish();
}
