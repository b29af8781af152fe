import type { Kafka, KafkaMessage } from 'kafkajs';
import { newRequestId, runWithContext, sanitizeRequestId, type Logger } from '@feedback/kit-core';
import { defaultDeadLetterTopic, PoisonMessageError } from './dead-letter.js';
import { decodeHeaders, KAFKA_HEADERS } from './headers.js';
import type { IdempotencyStore } from './idempotency.js';
import { processMessage, type ConsumedMessage, type MessageHandler } from './message-processor.js';
import { createProducer } from './producer.js';
import { ensureTopics } from './topics.js';

export interface RunConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  /** Where a new group starts: the earliest offset (true) or only new messages (false, default). */
  fromBeginning?: boolean;
  handler: MessageHandler;
  /** Skips events this group already handled; see IdempotencyStore for what it does not cover. */
  idempotency?: IdempotencyStore;
  /** One dead-letter topic for all subscribed topics; default `<topic>.dlq` per topic. */
  deadLetterTopic?: string;
  /** Handler calls per message before it is dead-lettered (default 5). */
  maxAttempts?: number;
  /** First wait between attempts, doubled each time up to 10 s (default 500 ms). */
  retryBackoffMs?: number;
  /** Which handler errors are worth retrying; default every error but PoisonMessageError. */
  isRetriable?: (err: unknown) => boolean;
  logger: Logger;
  sessionTimeout?: number;
  heartbeatInterval?: number;
  /** Longest a fetch waits for new data; also bounds how long stop() waits for an idle fetch. */
  maxWaitTimeInMs?: number;
  partitionsConsumedConcurrently?: number;
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

export async function runConsumer(opts: RunConsumerOptions): Promise<ConsumerHandle> {
  const { kafka, groupId } = opts;
  const log = opts.logger.child({ component: 'kafka-consumer', group: groupId });
  const deadLetterTopic = (topic: string) => opts.deadLetterTopic ?? defaultDeadLetterTopic(topic);
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: opts.sessionTimeout ?? 30_000,
    heartbeatInterval: opts.heartbeatInterval ?? 3_000,
    maxWaitTimeInMs: opts.maxWaitTimeInMs ?? 1_000,
  });
  const deadLetters = createProducer(kafka, { logger: opts.logger });
  const abort = new AbortController();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      abort.abort(); // ends a backoff wait now instead of after it
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
    // Best effort: without create rights the topics may still exist or be auto-created.
    await ensureTopics(kafka, dlqTopics.map((topic) => ({ topic }))).catch((err: unknown) =>
      log.warn({ err, topics: dlqTopics }, 'could not ensure dead-letter topics'),
    );
    await deadLetters.connect();
    await consumer.connect();
    await consumer.subscribe({ topics: opts.topics, fromBeginning: opts.fromBeginning ?? false });
    await consumer.run({
      // Offsets are resolved by hand, only after a message reached an outcome, and committed at
      // once (threshold 1): a crash mid-handler leaves that message uncommitted, so it is
      // redelivered, and at most the message in hand is replayed after a crash.
      eachBatchAutoResolve: false,
      autoCommit: true,
      autoCommitThreshold: 1,
      partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? 1,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }) => {
        const live = () => !abort.signal.aborted && isRunning() && !isStale();
        for (const message of batch.messages) {
          if (!live()) return;
          const msg = toConsumedMessage(batch.topic, batch.partition, message);
          const requestId = sanitizeRequestId(msg.headers[KAFKA_HEADERS.requestId]) ?? newRequestId();
          const outcome = await runWithContext({ requestId }, () =>
            processMessage(msg, {
              group: groupId,
              handler: opts.handler,
              idempotency: opts.idempotency,
              deadLetters,
              deadLetterTopic,
              maxAttempts: Math.max(1, opts.maxAttempts ?? 5),
              retryBackoffMs: opts.retryBackoffMs ?? 500,
              isRetriable: opts.isRetriable ?? ((err) => !(err instanceof PoisonMessageError)),
              logger: log,
              live,
              heartbeat,
              signal: abort.signal,
            }),
          );
          if (outcome === 'abandoned') return;
          resolveOffset(message.offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
        }
      },
    });
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  log.info({ topics: opts.topics }, 'consumer running');
  return { name: `kafka-consumer:${groupId}`, stop, close: stop };
}

function toConsumedMessage(topic: string, partition: number, message: KafkaMessage): ConsumedMessage {
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
