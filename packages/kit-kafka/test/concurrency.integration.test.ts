import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, committedOffset, freshTopic, startConsumer, startProducer, uniq, waitFor } from './stack.js';

afterEach(closeAll);

describe('a consumer handling several messages of a partition at once', () => {
  it('keeps at most `concurrency` in flight, handles each once, and commits the whole batch', async () => {
    const topic = await freshTopic();
    const producer = await startProducer();
    await producer.publish(
      topic,
      Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, value: String(i) })),
    );
    const groupId = uniq('g');
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await startConsumer({
      groupId,
      topics: [topic],
      concurrency: 8,
      handler: async (msg) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5 + (Number(msg.value.toString()) % 7)));
        seen.push(Number(msg.value.toString()));
        inFlight--;
      },
    });
    await waitFor('every message', () => seen.length === 40);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
    await waitFor('the commit of the last offset', async () => (await committedOffset(groupId, topic)) === '40');
  });

  it('never commits past a message still failing: the offset stops before it while later ones finish', async () => {
    const topic = await freshTopic();
    const producer = await startProducer();
    await producer.publish(
      topic,
      Array.from({ length: 10 }, (_, i) => ({ value: String(i) })),
    );
    const groupId = uniq('g');
    const done = new Set<number>();
    await startConsumer({
      groupId,
      topics: [topic],
      concurrency: 4,
      maxAttempts: 1_000,
      retryBackoffMs: 100,
      handler: async (msg) => {
        const n = Number(msg.value.toString());
        if (n === 3) throw new Error('stuck');
        done.add(n);
      },
    });
    await waitFor('the others', () => done.size === 9);
    await new Promise((r) => setTimeout(r, 500));
    expect(await committedOffset(groupId, topic)).toBe('3');
  });
});
