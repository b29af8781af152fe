import type { Logger } from '@feedback/kit-core';
import { PoisonMessageError, runConsumer, type ConsumedMessage, type ConsumerHandle } from '@feedback/kit-kafka';
import type { Kafka } from 'kafkajs';

/** What both fact consumers (clicks, answers) are told by their wiring. */
export interface FactConsumerOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  logger: Logger;
  /** A new group reads the topic from its start (default) or only what comes next (tests). */
  fromBeginning?: boolean;
  retryBackoffMs?: number;
  onCrash?: (err: Error) => void;
  /** Return at once and join the group in the background (kit-kafka); a failed start goes to onCrash. */
  background?: boolean;
}

/** Events per bulk write: one unordered bulkWrite per slice. */
const BATCH_SIZE = 500;

/**
 * A consumer that turns each event into at most one fact: a slice of a partition's batch is
 * decoded, the rest recorded by one call of `record` and its undecodable events dead-lettered at
 * once (they never hold the others back). Should that call fail, kit-kafka hands the slice's
 * events to the handler one by one, retried with backoff (without limit while a store or peer
 * is unreachable) and dead-lettered after five failures. Redelivery is harmless: every fact is
 * written under its own "not set yet" condition.
 */
export function runFactConsumer<T>(
  opts: FactConsumerOptions & {
    /** What the event says, null when it concerns no message (an answer not sent by SMS); throws PoisonMessageError when undecodable. */
    decode: (value: Buffer) => T | null;
    record: (events: T[]) => Promise<unknown>;
  },
): Promise<ConsumerHandle> {
  const decodeAll = (messages: ConsumedMessage[]) => {
    const events: T[] = [];
    const poison: ConsumedMessage[] = [];
    for (const m of messages) {
      try {
        const event = opts.decode(m.value);
        if (event !== null) events.push(event);
      } catch {
        poison.push(m);
      }
    }
    return { events, poison };
  };
  return runConsumer({
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: [opts.topic],
    ensureTopics: [{ topic: opts.topic, numPartitions: 3 }],
    fromBeginning: opts.fromBeginning ?? true,
    logger: opts.logger,
    retryBackoffMs: opts.retryBackoffMs ?? 1_000,
    onCrash: opts.onCrash,
    background: opts.background,
    batchSize: BATCH_SIZE,
    batchHandler: async (messages, tools) => {
      const { events, poison } = decodeAll(messages);
      // Recorded first: should the write fail, the handler below dead-letters the poison once.
      await opts.record(events);
      await tools.deadLetter(poison, new PoisonMessageError(`undecodable event on ${opts.topic}`));
      return messages;
    },
    handler: async (msg) => {
      const { events, poison } = decodeAll([msg]);
      if (poison.length > 0) throw new PoisonMessageError(`undecodable event on ${opts.topic} at ${msg.partition}:${msg.offset}`);
      await opts.record(events);
    },
  });
}
