import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, committedOffset, freshTopic, startConsumer, startProducer, uniq, waitFor, withAdmin } from './stack.js';

afterEach(closeAll);

async function groupState(groupId: string) {
  const { groups } = await withAdmin((admin) => admin.describeGroups([groupId]));
  return { state: groups[0]?.state, members: groups[0]?.members.length };
}

describe('stop', () => {
  it('commits after handling, leaves the group, and a second stop is a no-op', async () => {
    const topic = await freshTopic();
    const groupId = uniq('g');
    const handled: string[] = [];
    const consumer = await startConsumer({ groupId, topics: [topic], handler: async (m) => void handled.push(m.eventId) });
    const producer = await startProducer();
    await producer.publish(topic, [{ value: 'one' }]);
    await waitFor('the message', () => handled.length === 1);
    await waitFor('the offset commit', async () => (await committedOffset(groupId, topic)) === '1');
    expect(await groupState(groupId)).toEqual({ state: 'Stable', members: 1 });

    await consumer.stop();
    expect(await groupState(groupId)).toEqual({ state: 'Empty', members: 0 });
    await expect(consumer.stop()).resolves.toBeUndefined();
    await expect(consumer.close()).resolves.toBeUndefined();
    expect(await groupState(groupId)).toEqual({ state: 'Empty', members: 0 });
  });

  it('stopping while a message is being retried leaves it uncommitted for the next consumer', async () => {
    const topic = await freshTopic();
    const groupId = uniq('g');
    let failures = 0;
    const first = await startConsumer({
      groupId,
      topics: [topic],
      maxAttempts: 1_000,
      retryBackoffMs: 100,
      handler: async () => {
        failures++;
        throw new Error('still failing');
      },
    });
    const producer = await startProducer();
    const [eventId] = await producer.publish(topic, [{ value: 'stuck' }]);
    await waitFor('a few failed attempts', () => failures >= 2);
    await first.stop();
    expect(await committedOffset(groupId, topic)).toBe('-1');

    const handled: string[] = [];
    await startConsumer({ groupId, topics: [topic], handler: async (m) => void handled.push(m.eventId) });
    await waitFor('the redelivered message', () => handled.length === 1);
    expect(handled).toEqual([eventId]);
  });
});
