import { afterEach, describe, expect, it } from 'vitest';
import type { ConsumedMessage } from '../src/index.js';
import { closeAll, committedOffset, freshTopic, startConsumer, startProducer, uniq, waitFor } from './stack.js';

afterEach(closeAll);

const numbers = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i % 3}`, value: String(i) }));

describe('a consumer with a batch fast path', () => {
  it('hands slices to the batch handler, sends what it left to the per-message handler, and commits everything once', async () => {
    const topic = await freshTopic();
    await (await startProducer()).publish(topic, numbers(30));
    const groupId = uniq('g');
    const slices: number[][] = [];
    const inBatch: number[] = [];
    const oneByOne: number[] = [];
    await startConsumer({
      groupId,
      topics: [topic],
      batchSize: 7,
      batchHandler: async (messages) => {
        slices.push(messages.map((m) => Number(m.value.toString())));
        // Odd numbers are "hard": left for the per-message path.
        const easy = messages.filter((m) => Number(m.value.toString()) % 2 === 0);
        inBatch.push(...easy.map((m) => Number(m.value.toString())));
        return easy;
      },
      handler: async (msg) => void oneByOne.push(Number(msg.value.toString())),
    });
    await waitFor('every message', () => inBatch.length + oneByOne.length === 30);
    expect(slices.every((s) => s.length <= 7)).toBe(true);
    expect(inBatch.every((n) => n % 2 === 0)).toBe(true);
    expect([...oneByOne].sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => 2 * i + 1));
    await waitFor('the commit of the last offset', async () => (await committedOffset(groupId, topic)) === '30');
  });

  it('a throwing batch handler leaves the whole slice to the per-message handler, with its retries and dead letters', async () => {
    const topic = await freshTopic();
    await (await startProducer()).publish(topic, numbers(10));
    const groupId = uniq('g');
    const handled = new Map<number, number>();
    await startConsumer({
      groupId,
      topics: [topic],
      maxAttempts: 3,
      retryBackoffMs: 10,
      batchHandler: async () => {
        throw new Error('peer down');
      },
      handler: async (msg) => {
        const n = Number(msg.value.toString());
        handled.set(n, (handled.get(n) ?? 0) + 1);
        if (n === 4 && handled.get(n)! < 2) throw new Error('flaky once');
      },
    });
    await waitFor('every message', () => handled.size === 10);
    expect(handled.get(4)).toBe(2);
    expect([...handled.entries()].filter(([n]) => n !== 4).every(([, times]) => times === 1)).toBe(true);
    await waitFor('the commit of the last offset', async () => (await committedOffset(groupId, topic)) === '10');
  });

  it('a message the batch handler dead-letters goes to <topic>.dlq at once and never to the per-message handler', async () => {
    const topic = await freshTopic();
    const groupId = uniq('g');
    const dead: ConsumedMessage[] = [];
    const oneByOne: number[] = [];
    await startConsumer({ groupId: uniq('g-dlq'), topics: [`${topic}.dlq`], handler: async (msg) => void dead.push(msg) });
    await startConsumer({
      groupId,
      topics: [topic],
      maxAttempts: 6,
      retryBackoffMs: 5_000,
      batchHandler: async (messages, tools) => {
        const poison = messages.filter((m) => m.value.toString() === '3');
        await tools.deadLetter(poison, new Error('refused for good'));
        return messages;
      },
      handler: async (msg) => void oneByOne.push(Number(msg.value.toString())),
    });
    await (await startProducer()).publish(topic, numbers(6));
    await waitFor('the dead letter', () => dead.length === 1);
    expect(dead[0]!.value.toString()).toBe('3');
    expect(dead[0]!.headers['x-error-message']).toMatch(/refused for good/);
    expect(oneByOne).toEqual([]);
    await waitFor('the commit of the last offset', async () => (await committedOffset(groupId, topic)) === '6');
  });
});
