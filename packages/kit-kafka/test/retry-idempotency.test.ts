import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { mongoIdempotencyStore } from '@feedback/kit-stores';
import type { MessageHandler } from '../src/index.js';
import { closeAll, freshTopic, stack, startConsumer, startProducer, uniq, waitFor, withAdmin } from './helpers.js';

const client = new MongoClient(stack.mongo_url);
afterAll(() => client.close());
afterEach(closeAll);

describe('retries and idempotency', () => {
  it('retries a failing handler and, with the Mongo store, applies each event once', async () => {
    const topic = await freshTopic();
    const groupId = uniq('g');
    const store = mongoIdempotencyStore(client.db('kit_kafka_test'));
    const calls = new Map<string, number>();
    const effects: string[] = [];
    const ends = new Set<string>();
    const handler: MessageHandler = async (msg) => {
      const n = (calls.get(msg.eventId) ?? 0) + 1;
      calls.set(msg.eventId, n);
      const body = msg.value.toString();
      if (body.startsWith('end')) return void ends.add(body);
      if (body === 'flaky' && n === 1) throw new Error('transient failure');
      effects.push(msg.eventId);
    };

    const consumer = await startConsumer({ groupId, topics: [topic], idempotency: store, handler });
    const producer = await startProducer();
    await producer.publish(topic, [
      { value: 'flaky', eventId: 'e-flaky' },
      { value: 'dup', eventId: 'e-dup' },
    ]);
    await producer.publish(topic, [{ value: 'dup', eventId: 'e-dup' }]); // a republished duplicate
    await producer.publish(topic, [{ value: 'end-1' }]);
    await waitFor('the end marker', () => ends.has('end-1'));

    expect(calls.get('e-flaky')).toBe(2); // failed once, seen again
    expect(calls.get('e-dup')).toBe(1); // the duplicate never reached the handler
    expect(effects).toEqual(['e-flaky', 'e-dup']);
    expect(await store.seen(groupId, 'e-flaky')).toBe(true);

    // Replay the whole partition into a new consumer of the same group, as after a lost commit:
    // the store (not this process's memory) keeps the effects from happening again.
    await consumer.stop();
    await withAdmin((admin) => admin.resetOffsets({ groupId, topic, earliest: true }));
    await startConsumer({ groupId, topics: [topic], idempotency: store, handler });
    await producer.publish(topic, [{ value: 'end-2' }]);
    await waitFor('the second end marker', () => ends.has('end-2'));

    expect(effects).toEqual(['e-flaky', 'e-dup']);
    expect(calls.get('e-flaky')).toBe(2);
    expect(calls.get('e-dup')).toBe(1);
  });
});
