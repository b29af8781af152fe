import { randomUUID } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoIdempotencyKeys } from '../src/accounts/adapters/mongo/idempotency-keys.repository.js';

// The Idempotency-Key records on the stack's MongoDB, without HTTP: what happens while a first
// request is still running is decided here, and over HTTP it depends on when each request lands.
const stack = readStackFile();
const answer = { status: 200, body: '{"id":"s-1"}', contentType: 'application/json; charset=utf-8' };

describe('Idempotency-Key records on MongoDB', () => {
  let mongo: MongoClient;
  let db: Db;
  let keys: MongoIdempotencyKeys;
  const id = () => `test-account:sms_sharings:${randomUUID()}`;
  beforeAll(async () => {
    mongo = await new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 }).connect();
    db = mongo.db(`gateway_idem_${randomUUID().slice(0, 8)}`);
    keys = new MongoIdempotencyKeys(db, { ttlMs: 3_600_000, leaseMs: 60_000 });
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  it('lets one of many concurrent claims run; the others are in flight until it completes, then replay', async () => {
    const k = id();
    const now = new Date();
    const claims = await Promise.all(Array.from({ length: 8 }, () => keys.claim(k, 'hash-a', now)));
    expect(claims.filter((c) => c.outcome === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.outcome === 'in_flight')).toHaveLength(7);
    expect(await keys.claim(k, 'hash-a', now)).toEqual({ outcome: 'in_flight' });
    await keys.complete(k, answer, now);
    expect(await keys.claim(k, 'hash-a', now)).toEqual({ outcome: 'replay', answer });
  });

  it('answers mismatch for another request under the same key, running or done', async () => {
    const k = id();
    const now = new Date();
    expect(await keys.claim(k, 'hash-a', now)).toEqual({ outcome: 'claimed' });
    expect(await keys.claim(k, 'hash-b', now)).toEqual({ outcome: 'mismatch' });
    await keys.complete(k, answer, now);
    expect(await keys.claim(k, 'hash-b', now)).toEqual({ outcome: 'mismatch' });
  });

  it('lets a retry run after a release, and takes over a claim whose lease ran out (its gateway died)', async () => {
    const released = id();
    const t0 = new Date();
    expect(await keys.claim(released, 'hash-a', t0)).toEqual({ outcome: 'claimed' });
    await keys.release(released);
    expect(await keys.claim(released, 'hash-a', t0)).toEqual({ outcome: 'claimed' });

    const abandoned = id();
    expect(await keys.claim(abandoned, 'hash-a', t0)).toEqual({ outcome: 'claimed' });
    const withinLease = new Date(t0.getTime() + 59_000);
    expect(await keys.claim(abandoned, 'hash-a', withinLease)).toEqual({ outcome: 'in_flight' });
    const afterLease = new Date(t0.getTime() + 61_000);
    const takeovers = await Promise.all(Array.from({ length: 4 }, () => keys.claim(abandoned, 'hash-a', afterLease)));
    expect(takeovers.filter((c) => c.outcome === 'claimed')).toHaveLength(1);
  });
});
