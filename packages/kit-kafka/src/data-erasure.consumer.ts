import type { Logger } from '@feedback/kit-core';
import type { ConsumerHandle } from './consumer-lifecycle.js';
import { runConsumer } from './consumer.js';
import { PoisonMessageError } from './dead-letter.js';
import type { Producer } from './producer.js';
import { DataErasureProgress, DataErasureRequested, type DataErasureCounts } from '@feedback/proto/feedback/survey/v1/data_erasure';
import type { Kafka } from 'kafkajs';

interface ErasureConsumerOptions {
  kafka: Kafka;
  producer: Producer;
  topics: { requested: string; progress: string };
  groupId: string;
  /** The name this service reports under (data.erasure.progress `service`). */
  service: string;
  logger: Logger;
  onCrash?: (err: Error) => void;
  /** This service's part; idempotent (a redelivery finds nothing left and counts zero or the same). */
  erase: (request: DataErasureRequested) => Promise<Partial<DataErasureCounts>>;
}

const NO_COUNTS: DataErasureCounts = { customers: 0, messages: 0, responses: 0, links: 0, webhookDeliveries: 0, optOutsKept: 0 };

/**
 * The part of a data erasure that messaging, shortener and webhooks each do (the survey service,
 * which owns the requests, has its own consumers): data.erasure.requested in the service's own group, from the topic's beginning: requested while
 * this service was down, it is erased when the service is back. Reports data.erasure.progress
 * (as `service`) after erasing; a crash between the two redelivers the request, and the
 * survey service keeps the first report of each service.
 */
export function runErasureConsumer(opts: ErasureConsumerOptions): Promise<ConsumerHandle> {
  return runConsumer({
    background: true,
    ensureTopics: [
      { topic: opts.topics.requested, numPartitions: 3 },
      { topic: opts.topics.progress, numPartitions: 3 },
    ],
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: [opts.topics.requested],
    logger: opts.logger,
    fromBeginning: true,
    onCrash: opts.onCrash,
    handler: async (m) => {
      let request: DataErasureRequested;
      try {
        request = DataErasureRequested.decode(m.value);
      } catch {
        throw new PoisonMessageError('undecodable DataErasureRequested');
      }
      if (!request.erasureId || !request.accountId) throw new PoisonMessageError('DataErasureRequested without erasure_id or account_id');
      const counts = { ...NO_COUNTS, ...(await opts.erase(request)) };
      const progress = { erasureId: request.erasureId, accountId: request.accountId, service: opts.service, counts };
      await opts.producer.publish(opts.topics.progress, [
        {
          key: request.erasureId,
          value: Buffer.from(DataErasureProgress.encode(progress).finish()),
          eventId: `data.erasure.progress:${request.erasureId}:${opts.service}`,
          contentType: 'application/x-protobuf; messageType=feedback.survey.v1.DataErasureProgress',
        },
      ]);
    },
  });
}
