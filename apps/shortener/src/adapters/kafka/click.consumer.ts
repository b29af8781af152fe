import type { Logger } from '@feedback/kit-core';
import { PoisonMessageError, runBatchConsumer, type ConsumedMessage, type ConsumerHandle } from '@feedback/kit-kafka';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { Kafka } from 'kafkajs';
import type { ClickRecord } from '../../domain/click-counting.js';
import { LINK_LIMITS } from '../../domain/link.js';

interface ClickConsumerOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  logger: Logger;
  /** Counts one partition's decoded records; must be idempotent (it is: see countClicks and countClickHours). */
  onClicks: (partition: number, records: ClickRecord[]) => Promise<unknown>;
  fromBeginning?: boolean;
  sessionTimeout?: number;
  heartbeatInterval?: number;
  /** Called when kafkajs gives up and will not restart the consumer, or it could not start. */
  onCrash?: (err: Error) => void;
}

/**
 * Returns at once; the consumer joins its group in the background (kit-kafka's `background`),
 * so the service serves while a restarted member waits for the old session to expire.
 * Reads `link.clicked` a batch at a time (kit-kafka's batch consumer): one write per link per
 * batch keeps up however many gateways publish. Offsets are committed after the write; a crash
 * before the commit redelivers the batch, which the checkpointed tallies absorb. Undecodable
 * records go to `<topic>.dlq` untouched.
 */
export function runClickConsumer(opts: ClickConsumerOptions): Promise<ConsumerHandle> {
  return runBatchConsumer({
    background: true,
    ensureTopics: [{ topic: opts.topic, numPartitions: 3 }],
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: [opts.topic],
    logger: opts.logger,
    fromBeginning: opts.fromBeginning ?? true,
    sessionTimeout: opts.sessionTimeout,
    heartbeatInterval: opts.heartbeatInterval,
    // Under load, wait for a few hundred clicks per fetch rather than fetching every few ms:
    // fewer, larger batches cost the broker and the database far less per click.
    minBytes: 64 * 1024,
    maxWaitTimeInMs: 500,
    onCrash: opts.onCrash,
    handler: async ({ partition, messages }, { deadLetter }) => {
      const { records, poison } = decodeClickRecords(messages);
      await deadLetter(poison, new PoisonMessageError('undecodable LinkClicked'));
      await opts.onClicks(partition, records);
    },
  });
}

/** A batch's `link.clicked` records as the domain counts them; what is no click record is poison. */
export function decodeClickRecords<M extends Pick<ConsumedMessage, 'value' | 'offset'>>(
  messages: M[],
): { records: ClickRecord[]; poison: M[] } {
  const records: ClickRecord[] = [];
  const poison: M[] = [];
  for (const m of messages) {
    try {
      const event = LinkClicked.decode(m.value);
      const excluded = event.excludedAtMs.length + event.excludedSeconds.length;
      if (!LINK_LIMITS.codePattern.test(event.code) || event.clickedAtMs.length + excluded === 0) throw new Error('not a click record');
      records.push({
        code: event.code,
        offset: Number(m.offset),
        clicks: event.clickedAtMs.length,
        clickedAtMs: event.clickedAtMs,
        // Details in step with the clicks, or none (a gateway that predates them).
        ...(event.details.length === event.clickedAtMs.length && { details: event.details }),
        // Older gateways sent a time per excluded redirect, newer ones counts per second.
        excludedAtMs: event.excludedAtMs,
        excludedSeconds: event.excludedSeconds,
      });
    } catch {
      poison.push(m);
    }
  }
  return { records, poison };
}
