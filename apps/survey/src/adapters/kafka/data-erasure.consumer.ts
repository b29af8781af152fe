import type { Logger } from '@feedback/kit-core';
import { PoisonMessageError, runConsumer, type ConsumerHandle } from '@feedback/kit-kafka';
import { DataErasureProgress, DataErasureRequested } from '@feedback/proto/feedback/survey/v1/data_erasure';
import type { Kafka } from 'kafkajs';
import { NO_COUNTS, type ErasureCounts, type ErasureRequest } from '../../domain/data-erasure.js';

interface ErasureConsumerOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  logger: Logger;
  onCrash?: (err: Error) => void;
}

const decodeRequest = (value: Buffer): ErasureRequest => {
  const e = DataErasureRequested.decode(value);
  if (!e.erasureId || !e.accountId) throw new PoisonMessageError('DataErasureRequested without erasure_id or account_id');
  return { ...e, requestedAt: new Date(e.requestedAt) };
};

/**
 * data.erasure.requested, in this service's own group, from the beginning of the topic: a
 * service that was down when the request was made erases when it comes back. `erase` must be
 * idempotent (deletes by identifiers: a redelivery finds nothing and reports zero, and the
 * survey service keeps each service's first report).
 */
export function runErasureRequestConsumer(
  opts: ErasureConsumerOptions & { erase: (r: ErasureRequest) => Promise<void> },
): Promise<ConsumerHandle> {
  return runConsumer({
    background: true,
    ensureTopics: [{ topic: opts.topic, numPartitions: 3 }],
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: [opts.topic],
    logger: opts.logger,
    fromBeginning: true,
    onCrash: opts.onCrash,
    handler: async (m) => {
      let request: ErasureRequest;
      try {
        request = decodeRequest(m.value);
      } catch (err) {
        throw err instanceof PoisonMessageError ? err : new PoisonMessageError('undecodable DataErasureRequested');
      }
      await opts.erase(request);
    },
  });
}

/** data.erasure.progress: every service's report, recorded on the request. */
export function runErasureProgressConsumer(
  opts: ErasureConsumerOptions & { record: (p: { erasureId: string; service: string; counts: ErasureCounts }) => Promise<void> },
): Promise<ConsumerHandle> {
  return runConsumer({
    background: true,
    ensureTopics: [{ topic: opts.topic, numPartitions: 3 }],
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: [opts.topic],
    logger: opts.logger,
    fromBeginning: true,
    onCrash: opts.onCrash,
    handler: async (m) => {
      let p: DataErasureProgress;
      try {
        p = DataErasureProgress.decode(m.value);
      } catch {
        throw new PoisonMessageError('undecodable DataErasureProgress');
      }
      await opts.record({ erasureId: p.erasureId, service: p.service, counts: { ...NO_COUNTS, ...(p.counts ?? {}) } });
    },
  });
}
