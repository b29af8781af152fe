import type { Logger } from '@feedback/kit-core';
import type { ConsumerRunConfig, Kafka } from 'kafkajs';
import { defaultDeadLetterTopic } from './dead-letter.js';
import { createProducer, type Producer } from './producer.js';
import { ensureTopics } from './topics.js';

/** What every consumer of this kit shares: group, subscription, timings, dead letters, crash. */
export interface ConsumerLifecycleOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  /** Where a new group starts: the earliest offset (true) or only new messages (false, default). */
  fromBeginning?: boolean;
  /** One dead-letter topic for all subscribed topics; default `<topic>.dlq` per topic. */
  deadLetterTopic?: string;
  logger: Logger;
  sessionTimeout?: number;
  heartbeatInterval?: number;
  /** Longest a fetch waits for new data; also bounds how long stop() waits for an idle fetch. */
  maxWaitTimeInMs?: number;
  /** Least data a fetch waits for (up to maxWaitTimeInMs): fewer, larger batches under load. */
  minBytes?: number;
  /** Called when kafkajs gives up and will not restart the consumer (e.g. to shut the process down). */
  onCrash?: (err: Error) => void;
}

/** Shaped like kit-core's Closer, so it can be handed to onShutdown as is. */
export interface ConsumerHandle {
  name: string;
  /** Leaves the group and disconnects; later calls return the same promise. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** What a consumer's batch loop is handed by the lifecycle. */
export interface ConsumerSession {
  log: Logger;
  deadLetters: Producer;
  deadLetterTopic(topic: string): string;
  /** Aborted by stop(): ends waits (a retry backoff) at once. */
  signal: AbortSignal;
}

/**
 * Runs a kafkajs consumer from connect to disconnect: ensures the dead-letter topics (best
 * effort: without create rights they may still exist or be auto-created), connects a
 * dead-letter producer, subscribes, runs `run(session)`'s eachBatch, and returns a handle
 * whose stop() waits for the batch in hand, leaves the group and disconnects. A crash kafkajs
 * will not restart is logged and handed to onCrash.
 */
export async function startConsumerLifecycle(
  opts: ConsumerLifecycleOptions,
  run: (session: ConsumerSession) => ConsumerRunConfig,
): Promise<ConsumerHandle> {
  const { kafka, groupId } = opts;
  const log = opts.logger.child({ component: 'kafka-consumer', group: groupId });
  const deadLetterTopic = (topic: string) => opts.deadLetterTopic ?? defaultDeadLetterTopic(topic);
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: opts.sessionTimeout ?? 30_000,
    heartbeatInterval: opts.heartbeatInterval ?? 3_000,
    maxWaitTimeInMs: opts.maxWaitTimeInMs ?? 1_000,
    ...(opts.minBytes !== undefined && { minBytes: opts.minBytes }),
  });
  const deadLetters = createProducer(kafka, { logger: opts.logger });
  const abort = new AbortController();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      abort.abort();
      try {
        await consumer.disconnect(); // waits for the batch in hand, then leaves the group
      } finally {
        await deadLetters.disconnect();
      }
      log.info('consumer stopped');
    })();
    return stopping;
  };

  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart || stopping) return;
    log.fatal({ err: payload.error }, 'kafka consumer crashed and will not restart');
    opts.onCrash?.(payload.error);
  });

  try {
    const dlqTopics = [...new Set(opts.topics.map(deadLetterTopic))];
    await ensureTopics(kafka, dlqTopics.map((topic) => ({ topic }))).catch((err: unknown) =>
      log.warn({ err, topics: dlqTopics }, 'could not ensure dead-letter topics'),
    );
    await deadLetters.connect();
    await consumer.connect();
    await consumer.subscribe({ topics: opts.topics, fromBeginning: opts.fromBeginning ?? false });
    await consumer.run(run({ log, deadLetters, deadLetterTopic, signal: abort.signal }));
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  log.info({ topics: opts.topics }, 'consumer running');
  return { name: `kafka-consumer:${groupId}`, stop, close: stop };
}
