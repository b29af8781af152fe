import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import type { Consumer, Producer as KafkajsProducer } from 'kafkajs';
import { freshTopic, kafka, uniq, waitFor } from './stack.js';

/**
 * patches/kafkajs@2.2.4.patch rewrites how kafkajs encodes a produce request (records written in
 * one buffer with their headers, a small timestamp delta as a varint, partitions grouped in one
 * pass, buffers not zero-filled). The broker checks every batch's CRC and record layout, and this
 * reads everything back: any byte out of place fails here.
 */
const open: Array<KafkajsProducer | Consumer> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.disconnect()));
});

interface Sent {
  key: string | null;
  value: string | null;
  headers: Record<string, string | string[]>;
  timestamp: string;
}

describe('the patched kafkajs record encoding', () => {
  it('is the code installed (pnpm applied patches/kafkajs@2.2.4.patch)', () => {
    const require = createRequire(import.meta.url);
    for (const file of ['kafkajs/src/producer/groupMessagesPerPartition.js', 'kafkajs/src/protocol/recordBatch/record/v0/index.js'])
      expect(readFileSync(require.resolve(file), 'utf8')).toContain('Patched (feedback-service');
  });

  it('round-trips keys, values, headers and timestamps (small and large deltas) of a batch spread over partitions', async () => {
    const topic = await freshTopic(3);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    open.push(producer);
    await producer.connect();

    const now = Date.now();
    const day = 86_400_000;
    const sent: Sent[] = Array.from({ length: 3_000 }, (_, i) => ({
      key: i % 97 === 0 ? null : `key-${i % 50}`,
      value: i % 89 === 0 ? null : `value ${i} ${'ğüşıöç'.repeat(i % 7)}`,
      headers:
        i % 5 === 0
          ? {}
          : {
              'event-id': `e-${i}`,
              'x-request-id': 'r',
              'content-type': 'text/plain; ünïcode',
              ...(i % 3 === 0 ? { multi: ['a', 'bb'] } : {}),
            },
      // Deltas from the batch's first timestamp: 0, a few ms, and beyond 2^30 ms (about 12 days) for some.
      timestamp: String(i % 11 === 0 ? now - 30 * day : now + (i % 4)),
    }));
    // Two sends: one with every shape, one of a single message (the smallest request).
    await producer.send({ topic, acks: -1, messages: sent.slice(0, -1) });
    await producer.send({ topic, acks: -1, messages: sent.slice(-1) });

    const received: Array<Sent & { partition: number }> = [];
    const consumer = kafka.consumer({ groupId: uniq('g') });
    open.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, v] of Object.entries(message.headers ?? {})) headers[name] = Array.isArray(v) ? v.map(String) : String(v);
        received.push({
          partition,
          key: message.key === null ? null : message.key.toString(),
          value: message.value === null ? null : message.value.toString(),
          headers,
          timestamp: message.timestamp,
        });
      },
    });
    await waitFor('every message back', () => received.length === sent.length, 30_000);

    const partitions = new Set(received.map((r) => r.partition));
    expect(partitions.size).toBeGreaterThan(1);
    // Within a partition the order is the send order: compare each message by its value's index.
    const byValue = new Map(sent.map((s, i) => [s.value ?? `null-${i}`, s]));
    for (const r of received.filter((m) => m.value !== null)) {
      const want = byValue.get(r.value!);
      expect(byValue.has(r.value!), r.value!).toBe(true);
      expect({ key: r.key, headers: r.headers, timestamp: r.timestamp }).toEqual({
        key: want!.key,
        headers: want!.headers,
        timestamp: want!.timestamp,
      });
    }
    expect(received.filter((m) => m.value === null).length).toBe(sent.filter((s) => s.value === null).length);
    for (const p of partitions) {
      const indexes = received.filter((m) => m.partition === p && m.value !== null).map((m) => Number(m.value!.split(' ')[1]));
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    }
  });
});
