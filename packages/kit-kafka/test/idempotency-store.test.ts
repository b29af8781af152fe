import { afterAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { mongoIdempotencyStore } from '@feedback/kit-stores';
import { memoryIdempotencyStore, type IdempotencyStore } from '../src/index.js';
import { stack, uniq } from './helpers.js';

const client = new MongoClient(stack.mongo_url);
afterAll(() => client.close());

const stores: Array<[string, () => IdempotencyStore]> = [
  ['memory', () => memoryIdempotencyStore()],
  ['mongo', () => mongoIdempotencyStore(client.db('kit_kafka_test'))],
];

describe.each(stores)('%s idempotency store', (_name, make) => {
  it('remembers an event per group, and recording it twice is not an error', async () => {
    const store = make();
    const group = uniq('g');
    const other = uniq('g');
    const event = uniq('e');
    expect(await store.seen(group, event)).toBe(false);
    await store.record(group, event);
    await store.record(group, event);
    expect(await store.seen(group, event)).toBe(true);
    expect(await store.seen(other, event)).toBe(false);
  });
});
