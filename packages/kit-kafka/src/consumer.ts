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
  /**
   * Messages of one partition's batch handled at once (default 1: strictly in order). Above 1,
   * order within a partition is given up for throughput: use it only where the handler does not
   * depend on it. The committed offset only ever covers a contiguous run of finished messages,
   * so a crash redelivers every message that was in flight or after it.
   */
  concurrency?: number;
}

/** One message at a time (or `concurrency` at once), each retried in place and dead-lettered after `maxAttempts`. */
export function runConsumer(opts: RunConsumerOptions): Promise<ConsumerHandle> {
  return startConsumerLifecycle(opts, ({ log, deadLetters, deadLetterTopic, signal }) => ({
    // Offsets are resolved by hand, only after a message reached an outcome, and committed at
    // once (threshold 1): a crash mid-handler leaves that message uncommitted, so it is
    // redelivered, and at most the messages in hand are replayed after a crash.
    eachBatchAutoResolve: false,
    autoCommit: true,
    autoCommitThreshold: 1,
    partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? 1,
    eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }) => {
      const live = () => !signal.aborted && isRunning() && !isStale();
      const handle = (message: (typeof batch.messages)[number]) => {
        const msg = toConsumedMessage(batch.topic, batch.partition, message);
        const requestId = sanitizeRequestId(msg.headers[KAFKA_HEADERS.requestId]) ?? newRequestId();
        return runWithContext({ requestId }, () =>
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
      };
      const concurrency = Math.max(1, opts.concurrency ?? 1);
      if (concurrency === 1) {
        for (const message of batch.messages) {
          if (!live()) return;
          if ((await handle(message)) === 'abandoned') return;
          resolveOffset(message.offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
        }
        return;
      }
      // A window of `concurrency` messages in flight; the offset advances over the finished prefix.
      const messages = batch.messages;
      const finished = new Array<boolean>(messages.length).fill(false);
      let next = 0;
      let prefix = 0;
      let stop = false;
      // One commit at a time; offsets resolved meanwhile go with a follow-up commit.
      let dirty = false;
      let committer: Promise<void> | undefined;
      const flush = () => {
        dirty = true;
        committer ??= (async () => {
          try {
            while (dirty) {
              dirty = false;
              await commitOffsetsIfNecessary();
              await heartbeat();
            }
          } finally {
            committer = undefined;
          }
        })();
        return committer;
      };
      const worker = async () => {
        while (!stop && next < messages.length) {
          if (!live()) return void (stop = true);
          const i = next++;
          if ((await handle(messages[i]!)) === 'abandoned') return void (stop = true);
          finished[i] = true;
          if (prefix !== i) continue; // an earlier message is still in flight
          while (prefix < messages.length && finished[prefix]) prefix++;
          resolveOffset(messages[prefix - 1]!.offset);
          await flush();
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, messages.length) }, worker));
      if (prefix > 0) await commitOffsetsIfNecessary();
    },
  }));
}
