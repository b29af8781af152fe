import { newRequestId, runWithContext, sanitizeRequestId } from '@feedback/kit-core/runtime';
import { deadLetterMessage, PoisonMessageError } from './dead-letter.js';
import type { BatchTools } from './batch-consumer.js';
import { KAFKA_HEADERS } from './headers.js';
import { startConsumerLifecycle, type ConsumerHandle, type ConsumerLifecycleOptions } from './consumer-lifecycle.js';
import { processMessage, toConsumedMessage, type ConsumedMessage, type MessageHandler } from './message-processor.js';

export interface RunConsumerOptions extends ConsumerLifecycleOptions {
  handler: MessageHandler;
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
  /**
   * A fast path for work that is cheaper per batch than per message: called with slices of up
   * to `batchSize` messages of one partition, it answers the messages it finished. The others
   * (all of them when it throws) then go through `handler` one by one, with its retries and
   * dead-lettering, so a message that cannot be done in bulk still reaches its outcome. It
   * must be idempotent like `handler`: a crash redelivers the slice. A message it knows can
   * never succeed it may dead-letter at once (`tools.deadLetter`) and answer as finished, so it
   * is not tried again one by one.
   */
  batchHandler?: (messages: ConsumedMessage[], tools: BatchTools) => Promise<Iterable<ConsumedMessage>>;
  /** Most messages per batchHandler call (default 200). */
  batchSize?: number;
}

/** One message at a time (or `concurrency` at once), each retried in place and dead-lettered after `maxAttempts`. */
export function runConsumer(opts: RunConsumerOptions): Promise<ConsumerHandle> {
  return startConsumerLifecycle(opts, ({ log, deadLetters, deadLetterTopic, signal, metrics }) => ({
    // Offsets are resolved by hand, only after a message reached an outcome, and committed at
    // once (threshold 1): a crash mid-handler leaves that message uncommitted, so it is
    // redelivered, and at most the messages in hand are replayed after a crash.
    eachBatchAutoResolve: false,
    autoCommit: true,
    autoCommitThreshold: 1,
    partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? 1,
    eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }) => {
      const live = () => !signal.aborted && isRunning() && !isStale();
      const handle = (msg: ConsumedMessage) => {
        const requestId = sanitizeRequestId(msg.headers[KAFKA_HEADERS.requestId]) ?? newRequestId();
        return runWithContext({ requestId }, () =>
          processMessage(msg, {
            group: opts.groupId,
            handler: opts.handler,
            deadLetters,
            deadLetterTopic,
            maxAttempts: Math.max(1, opts.maxAttempts ?? 5),
            retryBackoffMs: opts.retryBackoffMs ?? 500,
            isRetriable: opts.isRetriable ?? ((err) => !(err instanceof PoisonMessageError)),
            logger: log,
            live,
            heartbeat,
            signal,
            metrics,
          }),
        );
      };
      /** Runs the messages through `handle`; false when it stopped before finishing them all. */
      const oneByOne = async (messages: ConsumedMessage[]): Promise<boolean> => {
        const concurrency = Math.max(1, opts.concurrency ?? 1);
        if (concurrency === 1) {
          for (const message of messages) {
            if (!live()) return false;
            if ((await handle(message)) === 'abandoned') return false;
            resolveOffset(message.offset);
            await commitOffsetsIfNecessary();
            await heartbeat();
          }
          return true;
        }
        // A window of `concurrency` messages in flight; the offset advances over the finished prefix.
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
        return !stop;
      };
      const all = batch.messages.map((m) => toConsumedMessage(batch.topic, batch.partition, m));
      if (!opts.batchHandler) {
        await oneByOne(all);
        return;
      }
      // Dead-lettered by the batch handler in the slice in hand: answered as finished, not counted ok.
      let deadLettered = 0;
      const tools: BatchTools = {
        async deadLetter(messages, err) {
          if (messages.length === 0) return;
          deadLettered += messages.length;
          const topic = deadLetterTopic(batch.topic);
          await deadLetters.publish(
            topic,
            messages.map((m) => deadLetterMessage(m, opts.groupId, err, 1)),
          );
          log.error({ err, count: messages.length, dead_letter_topic: topic }, 'messages dead-lettered');
          metrics.record(batch.topic, 'dead_lettered', messages.length);
          metrics.deadLettered(batch.topic, topic, messages.length);
        },
      };
      const size = Math.max(1, opts.batchSize ?? 200);
      for (let i = 0; i < all.length; i += size) {
        if (!live()) return;
        const slice = all.slice(i, i + size);
        const done = new Set<ConsumedMessage>();
        deadLettered = 0;
        try {
          // The slice's request id: that of its first event (a sharing's events share one).
          const requestId = sanitizeRequestId(slice[0]!.headers[KAFKA_HEADERS.requestId]) ?? newRequestId();
          for (const m of await runWithContext({ requestId }, () => opts.batchHandler!(slice, tools))) done.add(m);
          metrics.record(batch.topic, 'ok', Math.max(0, done.size - deadLettered));
        } catch (err) {
          log.warn(
            { err, topic: batch.topic, partition: batch.partition, count: slice.length },
            'batch handler failed; handling one by one',
          );
        }
        if (!(await oneByOne(slice.filter((m) => !done.has(m))))) return;
        resolveOffset(slice[slice.length - 1]!.offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
      }
    },
  }));
}
