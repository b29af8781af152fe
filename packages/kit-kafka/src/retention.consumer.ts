import type { AccountRetention, Logger, RetentionSettings } from '@feedback/kit-core';
import type { ConsumerHandle } from './consumer-lifecycle.js';
import { runConsumer } from './consumer.js';
import { PoisonMessageError } from './dead-letter.js';
import type { ConsumedMessage } from './message-processor.js';
import { AccountRetentionSet } from '@feedback/proto/feedback/accounts/v1/retention';
import type { Kafka } from 'kafkajs';

/** Compacted: the latest setting per account stays for ever, so a new service (or an emptied database) replays them all. */
export const retentionTopicSpec = (topic: string) => ({
  topic,
  numPartitions: 1,
  configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
});

export function retentionOf(msg: ConsumedMessage): AccountRetention {
  let e: AccountRetentionSet;
  try {
    e = AccountRetentionSet.decode(msg.value);
  } catch (err) {
    throw new PoisonMessageError(`undecodable account.retention at ${msg.topic}:${msg.partition}:${msg.offset}`, { cause: err });
  }
  if (!e.accountId) throw new PoisonMessageError(`account.retention at ${msg.topic}:${msg.offset} has no account`);
  const days: AccountRetention['days'] = {};
  if (e.messagesDays !== undefined) days.messages = e.messagesDays;
  if (e.responsesDays !== undefined) days.responses = e.responsesDays;
  if (e.webhookDeliveriesDays !== undefined) days.webhook_deliveries = e.webhookDeliveriesDays;
  return { accountId: e.accountId, days, version: e.version };
}

/**
 * Keeps the accounts' retention settings (account.retention, published by the gateway) in this
 * service's own database, where its retention sweep reads them. A new group reads the topic from
 * its start; a redelivered or replayed record changes nothing (the highest version wins).
 */
export function runRetentionConsumer(o: {
  kafka: Kafka;
  topic: string;
  groupId: string;
  settings: RetentionSettings;
  logger: Logger;
  onCrash?: (err: Error) => void;
}): Promise<ConsumerHandle> {
  return runConsumer({
    kafka: o.kafka,
    groupId: o.groupId,
    topics: [o.topic],
    ensureTopics: [retentionTopicSpec(o.topic)],
    fromBeginning: true,
    logger: o.logger,
    background: true,
    onCrash: o.onCrash,
    handler: async (msg) => o.settings.apply(retentionOf(msg)),
  });
}
