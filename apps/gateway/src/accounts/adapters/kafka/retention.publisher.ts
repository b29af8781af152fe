import type { AccountRetention } from '@feedback/kit-core';
import { createProducer, ensureTopics, retentionTopicSpec, type Producer } from '@feedback/kit-kafka';
import { AccountRetentionSet } from '@feedback/proto/feedback/accounts/v1/retention';
import type { Kafka } from 'kafkajs';
import type { Logger } from '@feedback/kit-core';
import type { RetentionEvents } from '../../domain/retention.use-cases.js';

const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.accounts.v1.AccountRetentionSet';

/**
 * account.retention, keyed by account id and compacted: each account's latest setting stays, so
 * a service that starts with an empty database replays them all. The topic and the producer are
 * made at the first change, not at start-up: Kafka away fails a retention change (503), never
 * the gateway's start.
 */
export function kafkaRetentionEvents(kafka: Kafka, topic: string, logger: Logger): RetentionEvents & { close(): Promise<void> } {
  let producer: Producer | undefined;
  let ready: Promise<Producer> | undefined;
  const connect = () => {
    ready ??= (async () => {
      await ensureTopics(kafka, [retentionTopicSpec(topic)]);
      producer = createProducer(kafka, { logger });
      await producer.connect();
      return producer;
    })().catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    return ready;
  };
  return {
    async published(s: AccountRetention) {
      const value = AccountRetentionSet.encode({
        accountId: s.accountId,
        messagesDays: s.days.messages,
        responsesDays: s.days.responses,
        webhookDeliveriesDays: s.days.webhook_deliveries,
        version: s.version,
      }).finish();
      await (
        await connect()
      ).publish(topic, [
        {
          key: s.accountId,
          value: Buffer.from(value),
          eventId: `account.retention:${s.accountId}:${s.version}`,
          contentType: CONTENT_TYPE,
        },
      ]);
    },
    async close() {
      await producer?.disconnect();
    },
  };
}
