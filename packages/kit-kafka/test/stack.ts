import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import type { Admin } from 'kafkajs';
import {
  createKafka,
  createProducer,
  ensureTopics,
  runConsumer,
  type ConsumerHandle,
  type Producer,
  type RunConsumerOptions,
} from '../src/index.js';

/** Against the running local stack (`infra/infra.sh up`); never a mock. */
export const stack = readStackFile();
export const logger = createLogger('kit-kafka-test', process.env.TEST_LOG_LEVEL ?? 'fatal');
export const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'kit-kafka-test', logger });

export const uniq = (prefix: string) => `${prefix}-${randomUUID()}`;

/** Polls until the condition holds; fails with `what` after the timeout. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const open: Array<ConsumerHandle | Producer> = [];

/** A consumer with test-friendly timings, stopped by closeAll(). */
export async function startConsumer(
  opts: Omit<RunConsumerOptions, 'kafka' | 'logger'> & Partial<Pick<RunConsumerOptions, 'logger'>>,
): Promise<ConsumerHandle> {
  const handle = await runConsumer({
    kafka,
    logger,
    fromBeginning: true,
    sessionTimeout: 10_000,
    heartbeatInterval: 1_000,
    retryBackoffMs: 50,
    ...opts,
  });
  open.push(handle);
  return handle;
}

export async function startProducer(): Promise<Producer> {
  const producer = createProducer(kafka, { logger });
  await producer.connect();
  open.push(producer);
  return producer;
}

export async function closeAll(): Promise<void> {
  const all = open.splice(0);
  await Promise.all(all.map((h) => ('stop' in h ? h.stop() : h.disconnect())));
}

/** A fresh topic with its dead-letter topic, both one partition so order is total. */
export async function freshTopic(numPartitions = 1): Promise<string> {
  const topic = uniq('t');
  await ensureTopics(kafka, [{ topic, numPartitions }, { topic: `${topic}.dlq` }]);
  return topic;
}

export async function withAdmin<T>(fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

/** The group's committed offset for partition 0 ('-1' when nothing is committed). */
export async function committedOffset(groupId: string, topic: string): Promise<string> {
  return withAdmin(async (admin) => {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return entry?.partitions.find((p) => p.partition === 0)?.offset ?? '-1';
  });
}
