import type { ITopicConfig, Kafka } from 'kafkajs';

export interface TopicSpec {
  topic: string;
  numPartitions?: number;
  /** Defaults to the broker's default.replication.factor. */
  replicationFactor?: number;
  configEntries?: ITopicConfig['configEntries'];
}

/**
 * Creates the topics that do not exist yet and waits for their leaders; existing topics are
 * left alone (partition counts are never changed here: adding partitions moves keys to other
 * partitions and breaks per-key ordering, so that stays an operator's decision).
 * Safe to call from every replica at start-up: a concurrent creation is not an error.
 */
export async function ensureTopics(kafka: Kafka, topics: TopicSpec[]): Promise<void> {
  if (topics.length === 0) return;
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length === 0) return;
    // createTopics answers false (no throw) when another process created them in between.
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((t) => ({
        topic: t.topic,
        numPartitions: t.numPartitions ?? 1,
        replicationFactor: t.replicationFactor ?? -1,
        ...(t.configEntries ? { configEntries: t.configEntries } : {}),
      })),
    });
  } finally {
    await admin.disconnect();
  }
}
