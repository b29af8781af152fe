import { KAFKA_HEADERS } from './headers.js';
import type { OutgoingMessage } from './producer.js';

/**
 * Thrown by a handler for a message that can never succeed (undecodable, refers to something
 * that will not exist): it goes to the dead-letter topic at once instead of being retried.
 */
export class PoisonMessageError extends Error {
  override name = 'PoisonMessageError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function defaultDeadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}

/** Header values are bounded so one huge error message cannot push the record over the broker's size limit. */
const MAX_ERROR_MESSAGE = 1_000;

/** A message as read from its partition, headers decoded: what a dead letter keeps. */
export interface FailedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | undefined;
  value: Buffer;
  headers: Record<string, string>;
}

/**
 * The dead-letter record keeps key, value and headers (event id, request id) untouched, so an
 * operator can republish it to the original topic as is, and adds where it came from and why it failed.
 */
export function deadLetterMessage(msg: FailedMessage, group: string, err: unknown, attempts: number): OutgoingMessage {
  const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return {
    ...(msg.key !== undefined ? { key: msg.key } : {}),
    value: msg.value,
    headers: {
      ...msg.headers,
      [KAFKA_HEADERS.originalTopic]: msg.topic,
      [KAFKA_HEADERS.originalPartition]: String(msg.partition),
      [KAFKA_HEADERS.originalOffset]: msg.offset,
      [KAFKA_HEADERS.consumerGroup]: group,
      [KAFKA_HEADERS.errorMessage]: reason.slice(0, MAX_ERROR_MESSAGE),
      [KAFKA_HEADERS.attempts]: String(attempts),
      [KAFKA_HEADERS.failedAt]: new Date().toISOString(),
    },
  };
}
