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
  /**
   * Sends the messages, in order, in as few requests as the broker's message size allows (sendChunks);
   * resolves with their event ids, in order, once every in-sync replica has them. A failure may
   * leave the earlier chunks sent: a retry sends them again (at least once; consumers de-duplicate
   * by event id).
   */
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
        for (const chunk of sendChunks(prepared)) await producer.send({ topic, acks: -1, messages: chunk });
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

/**
 * What one produce request may carry: a partition's record batch above the broker's
 * `message.max.bytes` (1 MiB by default, and on most managed Kafkas) is refused whole, so
 * cancelling a sharing of 10,000 recipients (10,000 status events) failed. Half of it leaves room
 * for the batch's own framing.
 */
export const MAX_SEND_BYTES = 512 * 1024;

interface Sized {
  key: string | null;
  value: Buffer | string;
  headers: Record<string, string>;
}

/** Splits messages, in order, into runs of at most MAX_SEND_BYTES (a larger message goes alone). */
export function sendChunks<T extends Sized>(messages: T[], maxBytes = MAX_SEND_BYTES): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const m of messages) {
    const size = sizeOf(m);
    if (chunk.length > 0 && bytes + size > maxBytes) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(m);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** A record's bytes on the wire, nearly: its key, value and headers, and about 20 bytes of framing each. */
function sizeOf(m: Sized): number {
  let size =
    20 + (m.key === null ? 0 : Buffer.byteLength(m.key)) + (typeof m.value === 'string' ? Buffer.byteLength(m.value) : m.value.length);
  for (const k in m.headers) size += 4 + k.length + Buffer.byteLength(m.headers[k]!);
  return size;
}
