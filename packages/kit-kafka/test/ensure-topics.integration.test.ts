import { createLogger } from '@feedback/kit-core/runtime';
import { logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createKafka, ensureTopics, pinoLogCreator } from '../src/index.js';
import { stack, uniq, withAdmin } from './stack.js';

/** A logger whose entries (pino level, message, fields) are kept instead of printed. */
function capturingLogger() {
  const lines: { level: number; msg: string; fields: Record<string, unknown> }[] = [];
  const logger = createLogger('ensure-topics-test', 'debug', {
    hooks: {
      logMethod(args, _method, level) {
        const [fields, msg] = args as unknown as [Record<string, unknown>, string];
        lines.push({ level, msg, fields });
      },
    },
  });
  return { logger, lines };
}

describe('ensureTopics from several processes at once', () => {
  it('five clients creating the same new topics at the same moment: all succeed, no error line, the partitions asked for, a leader each', async () => {
    const topics = [
      { topic: uniq('together-a'), numPartitions: 6 },
      { topic: uniq('together-b'), numPartitions: 1 },
    ];
    const { logger, lines } = capturingLogger();
    // One Kafka client (its own connections) per "process".
    const clients = Array.from({ length: 5 }, (_, i) => createKafka({ brokers: stack.kafka_brokers, clientId: `together-${i}`, logger }));
    const results = await Promise.allSettled(clients.map((k) => ensureTopics(k, topics)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill('fulfilled'));
    expect(lines.filter((l) => l.level >= 50).map((l) => `${l.msg} ${String(l.fields.error)}`)).toEqual([]);
    const meta = await withAdmin((admin) => admin.fetchTopicMetadata({ topics: topics.map((t) => t.topic) }));
    const partitions = Object.fromEntries(meta.topics.map((t) => [t.name, t.partitions.length]));
    expect(partitions).toEqual(Object.fromEntries(topics.map((t) => [t.topic, t.numPartitions])));
    for (const t of meta.topics) expect(t.partitions.every((p) => p.leader >= 0)).toBe(true);
  });

  it('a creation the broker refuses for another reason than a race fails with the reason in the message', async () => {
    const { logger } = capturingLogger();
    const k = createKafka({ brokers: stack.kafka_brokers, clientId: 'refused', logger, retry: { retries: 0 } });
    // One broker locally: a replication factor of 3 cannot be met.
    await expect(ensureTopics(k, [{ topic: uniq('refused'), numPartitions: 1, replicationFactor: 3 }])).rejects.toThrow(
      /creating topics refused-.* failed: refused-.*: .*replication/i,
    );
  });
});

describe('kafkajs log lines', () => {
  const entry = (message: string, error: string) => ({
    namespace: 'Connection',
    level: logLevel.ERROR,
    label: 'ERROR',
    log: { message, error, timestamp: new Date().toISOString(), logger: 'kafkajs', correlationId: 4, size: 10 },
  });

  it('error answers that are part of normal operation (a topic another replica created, a rebalance) are info, others stay errors', () => {
    const { logger, lines } = capturingLogger();
    const log = pinoLogCreator(logger)(logLevel.INFO);
    log(entry('Response CreateTopics(key: 19, version: 3)', 'Topic creation errors'));
    log(entry('Response Heartbeat(key: 12, version: 3)', 'The group is rebalancing, so a rejoin is needed'));
    log(entry('Response OffsetCommit(key: 8, version: 5)', 'The group is rebalancing, so a rejoin is needed'));
    log(entry('Response Metadata(key: 3, version: 6)', 'This server does not host this topic-partition'));
    log(entry('Response Heartbeat(key: 12, version: 3)', 'The coordinator is not aware of this member'));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [30, 'Response CreateTopics(key: 19, version: 3)'],
      [30, 'Response Heartbeat(key: 12, version: 3)'],
      [30, 'Response OffsetCommit(key: 8, version: 5)'],
      [50, 'Response Metadata(key: 3, version: 6)'],
      [50, 'Response Heartbeat(key: 12, version: 3)'],
    ]);
  });
});
