import { startConsumerLifecycle, type ConsumerHandle, type ConsumerLifecycleOptions } from './consumer-lifecycle.js';
import { deadLetterMessage } from './dead-letter.js';
import { toConsumedMessage, type ConsumedMessage } from './message-processor.js';

/** Consecutive messages of one partition, in offset order. */
export interface ConsumedBatch {
  topic: string;
  partition: number;
  messages: ConsumedMessage[];
}

export interface BatchTools {
  /** Sends messages that can never succeed to the dead-letter topic, untouched, with the reason. */
  deadLetter(messages: ConsumedMessage[], err: unknown): Promise<void>;
}

/**
 * Handles a whole batch; must be idempotent: a throw, a crash or a rebalance before the commit
 * delivers the batch again (kafkajs re-fetches it; nothing is retried in place).
 */
export type BatchHandler = (batch: ConsumedBatch, tools: BatchTools) => Promise<void>;

export interface RunBatchConsumerOptions extends ConsumerLifecycleOptions {
  handler: BatchHandler;
  /** Most messages per handler call (default 2000): bounds the time between heartbeats and commits in a backlog. */
  maxBatchSize?: number;
}

/**
 * For consumers whose work is cheaper per batch than per message (one write per key per
 * batch). Each partition's batch is handed over in slices of at most `maxBatchSize`; a slice's
 * last offset is committed for its partition once the handler returned.
 */
export function runBatchConsumer(opts: RunBatchConsumerOptions): Promise<ConsumerHandle> {
  const size = Math.max(1, opts.maxBatchSize ?? 2_000);
  return startConsumerLifecycle(opts, ({ log, deadLetters, deadLetterTopic, signal, metrics }) => {
    // Dead-lettered per partition's slice in hand: what the handler finished is the rest of it.
    const sent = new Map<string, number>();
    const tools: BatchTools = {
      async deadLetter(messages, err) {
        if (messages.length === 0) return;
        const from = messages[0]!.topic;
        const topic = deadLetterTopic(from);
        await deadLetters.publish(
          topic,
          messages.map((m) => deadLetterMessage(m, opts.groupId, err, 1)),
        );
        log.error({ err, count: messages.length, dead_letter_topic: topic }, 'messages dead-lettered');
        metrics.record(from, 'dead_lettered', messages.length);
        metrics.deadLettered(from, topic, messages.length);
        const key = `${from}:${messages[0]!.partition}`;
        sent.set(key, (sent.get(key) ?? 0) + messages.length);
      },
    };
    return {
      eachBatchAutoResolve: false,
      autoCommit: true,
      autoCommitThreshold: 1,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }) => {
        for (let i = 0; i < batch.messages.length; i += size) {
          if (signal.aborted || !isRunning() || isStale()) return;
          const slice = batch.messages.slice(i, i + size);
          const messages = slice.map((m) => toConsumedMessage(batch.topic, batch.partition, m));
          const key = `${batch.topic}:${batch.partition}`;
          sent.delete(key);
          await opts.handler({ topic: batch.topic, partition: batch.partition, messages }, tools);
          metrics.record(batch.topic, 'ok', Math.max(0, messages.length - (sent.get(key) ?? 0)));
          sent.delete(key);
          resolveOffset(slice[slice.length - 1]!.offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
        }
      },
    };
  });
}
