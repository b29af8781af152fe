import type { Logger } from '@feedback/kit-core';
import type { Closer } from '@feedback/kit-core/runtime';
import { runErasureConsumer, runRetentionConsumer, type ConsumerHandle, type Producer } from '@feedback/kit-kafka';
import { MongoLease, MongoRetentionSettings, startRetentionJob, sweepLimits } from '@feedback/kit-stores';
import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import type { MessagingEnv } from '../env.js';
import { MongoMessagingPersonalData } from './adapters/mongo/messaging-personal-data.repository.js';
import { messagingRetentionSweep } from './adapters/mongo/retention.sweep.js';
import { eraseMessagingData } from './domain/data-erasure.use-cases.js';
import type { MessagingErasureDeps } from './ports.js';

/** Messaging's part of a data erasure (domain/data-erasure.use-cases.ts). */
export function messagingErasureDeps(db: Db, hashPhone: (phone: string) => string): MessagingErasureDeps {
  return { personalData: new MongoMessagingPersonalData(db), hashPhone };
}

/** Retention (docs/api.md "Retention"): the accounts' settings from the gateway, swept by one replica at a time. */
export async function startRetention(o: {
  kafka: Kafka;
  db: Db;
  config: MessagingEnv;
  logger: Logger;
}): Promise<{ consumer: ConsumerHandle; sweep: Closer }> {
  const { kafka, db, config, logger } = o;
  const settings = new MongoRetentionSettings(db);
  const consumer = await runRetentionConsumer({
    kafka,
    topic: config.ACCOUNT_RETENTION_TOPIC,
    groupId: config.ACCOUNT_RETENTION_GROUP,
    settings,
    logger,
    onCrash: () => process.kill(process.pid, 'SIGTERM'),
  });
  const sweep = messagingRetentionSweep(db, settings, config.MESSAGES_RETENTION_DAYS);
  const job = startRetentionJob({
    lease: new MongoLease(db),
    intervalMs: config.RETENTION_SWEEP_INTERVAL_MS,
    sweep: (offset) => sweep(new Date(), sweepLimits(config, offset)),
    logger,
  });
  return { consumer, sweep: { name: 'retention', close: () => job.close() } };
}

/** Erasure of one person's data (docs/api.md "Personal data"): messages deleted, opt-outs kept as hashes. */
export function startErasureConsumer(o: {
  kafka: Kafka;
  producer: Producer;
  db: Db;
  config: MessagingEnv;
  hashPhone: (phone: string) => string;
  logger: Logger;
}): Promise<ConsumerHandle> {
  const deps = messagingErasureDeps(o.db, o.hashPhone);
  return runErasureConsumer({
    kafka: o.kafka,
    producer: o.producer,
    topics: { requested: o.config.DATA_ERASURE_REQUESTED_TOPIC, progress: o.config.DATA_ERASURE_PROGRESS_TOPIC },
    groupId: o.config.DATA_ERASURE_GROUP,
    service: 'messaging',
    logger: o.logger,
    onCrash: () => process.kill(process.pid, 'SIGTERM'),
    erase: (r) => eraseMessagingData(deps, r),
  });
}
