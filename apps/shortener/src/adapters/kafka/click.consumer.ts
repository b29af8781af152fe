import type { Logger } from '@feedback/kit-core';
import { createProducer, decodeHeaders, defaultDeadLetterTopic, ensureTopics, KAFKA_HEADERS } from '@feedback/kit-kafka';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { Kafka, KafkaMessage } from 'kafkajs';
import type { ClickRecord } from '../../domain/click-counting.js';
import { LINK_LIMITS } from '../../domain/link.js';

export interface ClickConsumerOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  logger: Logger;
  /** Counts one partition's decoded records; must be idempotent (it is: see countClicks). */
  onClicks: (partition: number, records: ClickRecord[]) => Promise<unknown>;
  fromBeginning?: boolean;
  sessionTimeout?: number;
  heartbeatInterval?: number;
  /** Called when kafkajs gives up and will not restart the consumer. */
  onCrash?: (err: Error) => void;
}

/** Records per write: bounds the time between heartbeats and commits during a backlog. */
const CHUNK = 2_000;

/**
 * Reads `link.clicked` a batch at a time, rather than through kit-kafka's one-message-at-a-time
 * runConsumer: one write per link per batch keeps up however many gateways publish. Offsets are committed after the write; a crash before the
 * commit redelivers the batch, which the checkpointed tallies absorb. Undecodable records go
 * to `<topic>.dlq` untouched.
 */
export async function runClickConsumer(opts: ClickConsumerOptions) {
  const log = opts.logger.child({ component: 'click-consumer', group: opts.groupId });
  const dlqTopic = defaultDeadLetterTopic(opts.topic);
  await ensureTopics(opts.kafka, [{ topic: opts.topic, numPartitions: 3 }, { topic: dlqTopic }]);
  const deadLetters = createProducer(opts.kafka, { logger: opts.logger });
  const consumer = opts.kafka.consumer({
    groupId: opts.groupId,
    sessionTimeout: opts.sessionTimeout ?? 30_000,
    heartbeatInterval: opts.heartbeatInterval ?? 3_000,
    // Under load, wait for a few hundred clicks per fetch rather than fetching every few ms:
    // fewer, larger batches cost the broker and the database far less per click.
    minBytes: 64 * 1024,
    maxWaitTimeInMs: 500,
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      try {
        await consumer.disconnect();
      } finally {
        await deadLetters.disconnect();
      }
      log.info('click consumer stopped');
    })());

  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart || stopping) return;
    log.fatal({ err: payload.error }, 'click consumer crashed and will not restart');
    opts.onCrash?.(payload.error);
  });

  try {
    await deadLetters.connect();
    await consumer.connect();
    await consumer.subscribe({ topics: [opts.topic], fromBeginning: opts.fromBeginning ?? true });
    await consumer.run({
      eachBatchAutoResolve: false,
      autoCommit: true,
      autoCommitThreshold: 1,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }) => {
        for (let i = 0; i < batch.messages.length; i += CHUNK) {
          if (!isRunning() || isStale()) return;
          const chunk = batch.messages.slice(i, i + CHUNK);
          const { records, poison } = decode(chunk);
          if (poison.length > 0) {
            await deadLetters.publish(dlqTopic, poison.map((m) => deadLetter(m, batch.topic, batch.partition, opts.groupId)));
            log.error({ count: poison.length, dead_letter_topic: dlqTopic }, 'undecodable click records dead-lettered');
          }
          await opts.onClicks(batch.partition, records);
          resolveOffset(chunk[chunk.length - 1]!.offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
        }
      },
    });
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  log.info({ topic: opts.topic }, 'click consumer running');
  return { name: `click-consumer:${opts.groupId}`, stop, close: stop };
}

function decode(messages: KafkaMessage[]): { records: ClickRecord[]; poison: KafkaMessage[] } {
  const records: ClickRecord[] = [];
  const poison: KafkaMessage[] = [];
  for (const m of messages) {
    try {
      const event = LinkClicked.decode(m.value ?? Buffer.alloc(0));
      if (!LINK_LIMITS.codePattern.test(event.code) || event.clickedAtMs.length === 0) throw new Error('not a click record');
      records.push({ code: event.code, offset: Number(m.offset), clicks: event.clickedAtMs.length });
    } catch {
      poison.push(m);
    }
  }
  return { records, poison };
}

function deadLetter(m: KafkaMessage, topic: string, partition: number, group: string) {
  return {
    ...(m.key ? { key: m.key.toString() } : {}),
    value: m.value ?? Buffer.alloc(0),
    headers: {
      ...decodeHeaders(m.headers),
      [KAFKA_HEADERS.originalTopic]: topic,
      [KAFKA_HEADERS.originalPartition]: String(partition),
      [KAFKA_HEADERS.originalOffset]: m.offset,
      [KAFKA_HEADERS.consumerGroup]: group,
      [KAFKA_HEADERS.errorMessage]: 'undecodable LinkClicked',
      [KAFKA_HEADERS.failedAt]: new Date().toISOString(),
    },
  };
}
