import type { Producer } from '@feedback/kit-kafka';
import { DataErasureProgress, DataErasureRequested } from '@feedback/proto/feedback/survey/v1/data_erasure';
import type { ErasureCounts, ErasureEvents, ErasureRequest } from '../../domain/data-erasure.js';

const contentType = (message: string) => `application/x-protobuf; messageType=feedback.survey.v1.${message}`;

export const countsMessage = (c: ErasureCounts) => ({
  customers: c.customers,
  messages: c.messages,
  responses: c.responses,
  links: c.links,
  webhookDeliveries: c.webhookDeliveries,
  optOutsKept: c.optOutsKept,
});

/** Requests keyed by account, reports by erasure id; the event ids repeat on retries. */
export function kafkaErasureEvents(producer: Producer, topics: { requested: string; progress: string }): ErasureEvents {
  return {
    async requested(r: ErasureRequest) {
      const value = DataErasureRequested.encode({ ...r, requestedAt: r.requestedAt.toISOString() }).finish();
      await producer.publish(topics.requested, [
        {
          key: r.accountId,
          value: Buffer.from(value),
          eventId: `data.erasure.requested:${r.erasureId}`,
          contentType: contentType('DataErasureRequested'),
        },
      ]);
    },
    async progress(p) {
      const value = DataErasureProgress.encode({ ...p, counts: countsMessage(p.counts) }).finish();
      await producer.publish(topics.progress, [
        {
          key: p.erasureId,
          value: Buffer.from(value),
          eventId: `data.erasure.progress:${p.erasureId}:${p.service}`,
          contentType: contentType('DataErasureProgress'),
        },
      ]);
    },
  };
}
