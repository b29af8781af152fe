import { metricsRegistry } from '@feedback/kit-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { PoisonMessageError, runBatchConsumer } from '../src/index.js';
import { closeAll, freshTopic, kafka, logger, startConsumer, startProducer, uniq, waitFor } from './stack.js';

afterEach(closeAll);

/** A series' value now (undefined when it does not exist). */
async function value(metric: string, labels: Record<string, string>): Promise<number | undefined> {
  const m = metricsRegistry.getSingleMetric(metric);
  if (!m) return undefined;
  const { values } = await m.get();
  return values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

describe('consumer metrics (real broker)', () => {
  it('count records by result, dead letters by topic, and keep the lag of the partition in hand', async () => {
    const topic = await freshTopic();
    const group = uniq('g');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let flakyCalls = 0;
    const done: string[] = [];
    await startConsumer({
      groupId: group,
      topics: [topic],
      maxAttempts: 3,
      handler: async (msg) => {
        const v = msg.value.toString();
        if (v === 'first') await gate;
        if (v === 'flaky' && ++flakyCalls === 1) throw new Error('once');
        if (v === 'poison') throw new PoisonMessageError('never');
        done.push(v);
      },
    });
    const producer = await startProducer();
    await producer.publish(
      topic,
      ['first', 'flaky', 'poison', 'ok-1', 'ok-2'].map((v, i) => ({ key: 'k', value: v, eventId: `e${i}` })),
    );
    const lag = { group, topic, partition: '0' };
    // The first record is held: all five are still to be finished.
    await waitFor('lag 5 while the first record is held', async () => (await value('kafka_consumer_lag', lag)) === 5);
    release();
    await waitFor('every record finished', () => done.length === 4);
    await waitFor('lag 0', async () => (await value('kafka_consumer_lag', lag)) === 0);
    const records = async (result: string) => value('kafka_consumer_records_total', { group, topic, result });
    expect([await records('ok'), await records('retried'), await records('dead_lettered'), await records('skipped')]).toEqual([
      3,
      1,
      1,
      undefined,
    ]);
    expect(await value('kafka_consumer_dead_lettered_total', { group, topic, dead_letter_topic: `${topic}.dlq` })).toBe(1);
    // The producers' side: the five records, and the dead letter the consumer published.
    expect(await value('kafka_producer_records_total', { topic, result: 'ok' })).toBe(5);
    expect(await value('kafka_producer_records_total', { topic: `${topic}.dlq`, result: 'ok' })).toBe(1);
    // A stopped consumer reports no partition any more.
    await closeAll();
    expect(await value('kafka_consumer_lag', lag)).toBeUndefined();
  });

  it('count a batch consumer: what it dead-lettered, and the rest of each batch as ok', async () => {
    const topic = await freshTopic();
    const group = uniq('g');
    let seen = 0;
    const consumer = await runBatchConsumer({
      kafka,
      logger,
      groupId: group,
      topics: [topic],
      fromBeginning: true,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      handler: async (batch, tools) => {
        await tools.deadLetter(
          batch.messages.filter((m) => m.value.toString() === 'bad'),
          new PoisonMessageError('bad'),
        );
        seen += batch.messages.length;
      },
    });
    try {
      const producer = await startProducer();
      await producer.publish(
        topic,
        ['a', 'bad', 'b', 'c'].map((v) => ({ key: 'k', value: v })),
      );
      await waitFor('four records seen', () => seen === 4);
      const records = async (result: string) => value('kafka_consumer_records_total', { group, topic, result });
      expect([await records('ok'), await records('dead_lettered')]).toEqual([3, 1]);
      expect(await value('kafka_consumer_dead_lettered_total', { group, topic, dead_letter_topic: `${topic}.dlq` })).toBe(1);
      await waitFor('lag 0', async () => (await value('kafka_consumer_lag', { group, topic, partition: '0' })) === 0);
    } finally {
      await consumer.stop();
    }
  });
});
