import { newRequestId, runWithContext, sanitizeRequestId } from '@feedback/kit-core';
import { PoisonMessageError } from './dead-letter.js';
import { KAFKA_HEADERS } from './headers.js';
import type { IdempotencyStore } from './idempotency.js';
import { startConsumerLifecycle, type ConsumerHandle, type ConsumerLifecycleOptions } from './consumer-lifecycle.js';
import { processMessage, toConsumedMessage, type MessageHandler } from './message-processor.js';

export interface RunConsumerOptions extends ConsumerLifecycleOptions {
  handler: MessageHandler;
  /** Skips events this group already handled; see IdempotencyStore for what it does not cover. */
  idempotency?: IdempotencyStore;
  /** Handler calls per message before it is dead-lettered (default 5). */
  maxAttempts?: number;
  /** First wait between attempts, doubled each time up to 10 s (default 500 ms). */
  retryBackoffMs?: number;
  /** Which handler errors are worth retrying; default every error but PoisonMessageError. */
  isRetriable?: (err: unknown) => boolean;
  partitionsConsumedConcurrently?: number;
}

/** One message at a time, each retried in place and dead-lettered after `maxAttempts`. */
export function runConsumer(opts: RunConsumerOptions): Promise<ConsumerHandle> {
  return startConsumerLifecycle(opts, ({ log, deadLetters, deadLetterTopic, signal }) => ({
    // Offsets are resolved by hand, only after a message reached an outcome, and committed at
    // once (threshold 1): a crash mid-handler leaves that message uncommitted, so it is
    // redelivered, and at most the message in hand is replayed after a crash.
    eachBatchAutoResolve: false,
    autoCommit: true,
    autoCommitThreshold: 1,
    partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? 1,
    eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }) => {
      const live = () => !signal.aborted && isRunning() && !isStale();
      for (const message of batch.messages) {
        if (!live()) return;
        const msg = toConsumedMessage(batch.topic, batch.partition, message);
        const requestId = sanitizeRequestId(msg.headers[KAFKA_HEADERS.requestId]) ?? newRequestId();
        const outcome = await runWithContext({ requestId }, () =>
          processMessage(msg, {
            group: opts.groupId,
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
            signal,
          }),
        );
        if (outcome === 'abandoned') return;
        resolveOffset(message.offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
      }
    },
  }));
}
