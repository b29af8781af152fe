import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, isOutage, type Logger } from '@feedback/kit-core';
import type { KafkaMessage } from 'kafkajs';
import { deadLetterMessage, PoisonMessageError, type FailedMessage } from './dead-letter.js';
import { decodeHeaders, KAFKA_HEADERS } from './headers.js';
import type { ConsumerMetrics } from './consumer-metrics.js';
import type { Producer } from './producer.js';

/** A message as handlers see it: its headers decoded, and an id to de-duplicate it by. */
export interface ConsumedMessage extends FailedMessage {
  /** The `event-id` header; for a message without one, its position `${topic}:${partition}:${offset}`, which is stable across redeliveries. */
  eventId: string;
}

export type MessageHandler = (msg: ConsumedMessage) => Promise<void>;

export function toConsumedMessage(topic: string, partition: number, message: KafkaMessage): ConsumedMessage {
  const headers = decodeHeaders(message.headers);
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString(),
    value: message.value ?? Buffer.alloc(0),
    headers,
    eventId: headers[KAFKA_HEADERS.eventId] ?? `${topic}:${partition}:${message.offset}`,
  };
}

export interface ProcessorDeps {
  group: string;
  handler: MessageHandler;
  deadLetters: Producer;
  deadLetterTopic: (topic: string) => string;
  maxAttempts: number;
  retryBackoffMs: number;
  isRetriable: (err: unknown) => boolean;
  /**
   * How long failures caused by an outage (a database, broker or peer service unreachable or
   * timing out: `isOutage`, or an AppError of kind "unavailable") are retried without counting
   * toward `maxAttempts`; default 10 minutes. A dependency restarting must not dead-letter work.
   */
  outageWaitMs?: number;
  logger: Logger;
  /** False once the consumer is stopping or lost the partition: stop retrying, leave the offset uncommitted. */
  live: () => boolean;
  heartbeat: () => Promise<void>;
  signal: AbortSignal;
  /** Counts each outcome (ok, retried, dead_lettered); none in unit tests that do not ask. */
  metrics?: ConsumerMetrics;
}

export type Outcome = 'handled' | 'dead-lettered' | 'abandoned';

const MAX_BACKOFF_MS = 10_000;
const DEFAULT_OUTAGE_WAIT_MS = 10 * 60_000;

/** A dependency is away (not the message's fault): worth waiting for rather than dead-lettering. */
const isOutageFailure = (err: unknown) => isOutage(err) || (err instanceof AppError && err.kind === 'unavailable');

/**
 * Runs one message to an outcome that allows its offset to be committed ('abandoned' does not).
 *
 * Failed attempts are retried here, in place, with exponential backoff, rather than by
 * re-throwing to kafkajs: a throw makes kafkajs re-fetch and, after its own retries, restart
 * the consumer (leave and re-join the group, pausing every partition of this member), and it
 * keeps no attempt count, so maxAttempts could not be enforced. Retrying in place keeps the
 * partition's order, counts attempts exactly and heartbeats between them. What is not the
 * handler's fault (the dead-letter publish failing) is thrown to kafkajs,
 * which leaves the offset uncommitted and redelivers.
 */
export async function processMessage(msg: ConsumedMessage, deps: ProcessorDeps): Promise<Outcome> {
  const log = deps.logger.child({ topic: msg.topic, partition: msg.partition, offset: msg.offset, event_id: msg.eventId });
  const outageWaitMs = deps.outageWaitMs ?? DEFAULT_OUTAGE_WAIT_MS;
  let outageSince: number | undefined;
  // `attempt` counts the failures that are the message's own; waits through an outage do not.
  for (let attempt = 1, tries = 1; ; tries++) {
    let failed = false;
    let error: unknown;
    try {
      await deps.handler(msg);
    } catch (err) {
      failed = true;
      error = err;
    }
    if (!failed) {
      deps.metrics?.record(msg.topic, tries === 1 ? 'ok' : 'retried');
      return 'handled';
    }
    const poison = error instanceof PoisonMessageError || !deps.isRetriable(error);
    const outage = !poison && isOutageFailure(error);
    if (outage) outageSince ??= Date.now();
    else outageSince = undefined;
    const waitingOutOutage = outage && Date.now() - outageSince! < outageWaitMs;
    if (poison || (!waitingOutOutage && attempt >= deps.maxAttempts)) {
      const topic = deps.deadLetterTopic(msg.topic);
      await deps.deadLetters.publish(topic, [deadLetterMessage(msg, deps.group, error, tries)]);
      log.error({ err: error, attempts: tries, dead_letter_topic: topic }, 'message dead-lettered');
      deps.metrics?.record(msg.topic, 'dead_lettered');
      deps.metrics?.deadLettered(msg.topic, topic, 1);
      return 'dead-lettered';
    }
    if (!waitingOutOutage) attempt++;
    const wait = Math.min(MAX_BACKOFF_MS, deps.retryBackoffMs * 2 ** (tries - 1)) * (0.5 + Math.random() / 2);
    log.warn({ err: error, attempt, outage: waitingOutOutage, retry_in_ms: Math.round(wait) }, 'handler failed; retrying');
    await sleep(wait, undefined, { signal: deps.signal }).catch(() => undefined);
    if (!deps.live()) return 'abandoned';
    await deps.heartbeat();
  }
}
