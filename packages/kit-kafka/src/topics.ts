import type { Admin, ITopicConfig, Kafka } from 'kafkajs';

export interface TopicSpec {
  topic: string;
  numPartitions?: number;
  /** Defaults to the broker's default.replication.factor. */
  replicationFactor?: number;
  configEntries?: ITopicConfig['configEntries'];
}

/**
 * Creates the topics that do not exist yet and waits until every partition of each has a leader;
 * existing topics are left alone (partition counts are never changed here: adding partitions
 * moves keys to other partitions and breaks per-key ordering, so that stays an operator's decision).
 *
 * Safe to call from every replica at start-up: a topic another process created a moment earlier
 * (TOPIC_ALREADY_EXISTS, or listed already) is not an error, and the wait for leaders covers
 * those topics too, since the process that created them may still be waiting for its own
 * (kafkajs waits only for topics the call itself created).
 */
export async function ensureTopics(kafka: Kafka, topics: TopicSpec[], opts: { leaderTimeoutMs?: number } = {}): Promise<void> {
  if (topics.length === 0) return;
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) {
      try {
        // Answers false (no throw) when every refusal was TOPIC_ALREADY_EXISTS: another process won.
        await admin.createTopics({
          waitForLeaders: false,
          topics: missing.map((t) => ({
            topic: t.topic,
            numPartitions: t.numPartitions ?? 1,
            replicationFactor: t.replicationFactor ?? -1,
            ...(t.configEntries ? { configEntries: t.configEntries } : {}),
          })),
        });
      } catch (err) {
        throw creationError(missing, err);
      }
    }
    await waitForLeaders(
      admin,
      topics.map((t) => t.topic),
      opts.leaderTimeoutMs ?? 30_000,
    );
  } finally {
    await admin.disconnect();
  }
}

async function waitForLeaders(admin: Admin, names: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'not listed yet';
  for (;;) {
    // Listed first: the listing asks for no topic by name, so a topic whose creation has not
    // reached the broker's metadata yet is simply absent, where asking for it by name is an
    // error answer (UNKNOWN_TOPIC_OR_PARTITION) that kafkajs logs at error level.
    const listed = new Set(await admin.listTopics());
    const unlisted = names.filter((n) => !listed.has(n));
    if (unlisted.length > 0) last = `not listed yet: ${unlisted.join(', ')}`;
    else {
      try {
        const { topics } = await admin.fetchTopicMetadata({ topics: names });
        const waiting = topics.filter((t) => t.partitions.length === 0 || t.partitions.some((p) => p.leader < 0)).map((t) => t.name);
        if (waiting.length === 0) return;
        last = `no leader yet for ${waiting.join(', ')}`;
      } catch (err) {
        // LEADER_NOT_AVAILABLE while a new topic's leaders are elected.
        last = (err as Error).message;
      }
    }
    if (Date.now() > deadline) throw new Error(`kafka: topics ${names.join(', ')} not ready within ${timeoutMs} ms: ${last}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** kafkajs says only "Topic creation errors": the reason of each topic goes into the message. */
function creationError(topics: TopicSpec[], err: unknown): Error {
  const each = (err as { errors?: { topic?: string; message?: string }[] }).errors;
  const why = Array.isArray(each) ? each.map((e) => `${e.topic ?? '?'}: ${e.message ?? 'failed'}`).join('; ') : (err as Error).message;
  return new Error(`kafka: creating topics ${topics.map((t) => t.topic).join(', ')} failed: ${why}`, { cause: err });
}
