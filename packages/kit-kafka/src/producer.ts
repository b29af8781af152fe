import { randomUUID } from 'node:crypto';
import { Partitioners, type Kafka } from 'kafkajs';
import type { Logger } from '@feedback/kit-core';
import { currentContext, newRequestId } from '@feedback/kit-core/runtime';
import { KAFKA_HEADERS } from './headers.js';
import { recordPublish } from './producer-metrics.js';

export interface OutgoingMessage {
  /** Partitioning key: messages with the same key keep their order. */
  key?: string;
  value: Buffer | string;
  /** Extra headers; a header given here wins over the defaults below. */
  headers?: Record<string, string>;
  /** Stable id for consumer-side de-duplication; a fresh UUID when absent. */
  eventId?: string;
  contentType?: string;
}

export interface Producer {
  connect(): Promise<void>;
  /** Sends all messages in one request; resolves with their event ids, in order, once every in-sync replica has them. */
  publish(topic: string, messages: OutgoingMessage[]): Promise<string[]>;
  disconnect(): Promise<void>;
}

export interface CreateProducerOptions {
  logger: Logger;
}

export function createProducer(kafka: Kafka, opts: CreateProducerOptions): Producer {
  // Idempotent + one request in flight: a retried send neither duplicates nor reorders a batch.
  // The Java-compatible partitioner (kafkajs's v2 default, named to silence its warning) puts a
  // key on the same partition as Java or Go clients would.
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const log = opts.logger.child({ component: 'kafka-producer' });
  let disconnecting: Promise<void> | undefined;

  return {
    async connect() {
      await producer.connect();
    },

    async publish(topic, messages) {
      if (messages.length === 0) return [];
      const requestId = currentContext()?.requestId ?? newRequestId();
      const prepared = messages.map((m) => {
        const headers: Record<string, string> = {
          [KAFKA_HEADERS.requestId]: requestId,
          [KAFKA_HEADERS.eventId]: m.eventId ?? randomUUID(),
          ...(m.contentType ? { [KAFKA_HEADERS.contentType]: m.contentType } : {}),
          ...m.headers,
        };
        return { key: m.key ?? null, value: m.value, headers };
      });
      const started = performance.now();
      try {
        await producer.send({ topic, acks: -1, messages: prepared });
      } catch (err) {
        recordPublish(topic, prepared.length, false, (performance.now() - started) / 1000);
        throw err;
      }
      recordPublish(topic, prepared.length, true, (performance.now() - started) / 1000);
      log.debug({ topic, count: prepared.length }, 'published');
      return prepared.map((m) => m.headers[KAFKA_HEADERS.eventId] as string);
    },

    disconnect() {
      disconnecting ??= producer.disconnect();
      return disconnecting;
    },
  };
}
