import { META } from '@feedback/kit-core/runtime';
import type { IHeaders } from 'kafkajs';

/** Kafka header names, in one place (request id shares its name with HTTP and gRPC metadata). */
export const KAFKA_HEADERS = {
  requestId: META.requestId,
  eventId: 'event-id',
  contentType: 'content-type',
  originalTopic: 'x-original-topic',
  originalPartition: 'x-original-partition',
  originalOffset: 'x-original-offset',
  consumerGroup: 'x-consumer-group',
  errorMessage: 'x-error-message',
  attempts: 'x-attempts',
  failedAt: 'x-failed-at',
} as const;

/** kafkajs hands headers over as Buffers (or arrays when a name repeats): flatten to strings, first value wins. */
export function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined) out[name] = value.toString();
  }
  return out;
}
