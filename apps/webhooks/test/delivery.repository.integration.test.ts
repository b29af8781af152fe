import { randomUUID } from 'node:crypto';
import { explainFinds } from '@feedback/dev-stack';
import { pageQueryOf } from '@feedback/kit-core';
import type { MongoHandle } from '@feedback/kit-stores';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoDeliveryRepository } from '../src/adapters/mongo/delivery.repository.js';
import { MongoEndpointRepository } from '../src/adapters/mongo/endpoint.repository.js';
import { newDelivery } from '../src/domain/endpoint.use-cases.js';
import type { Endpoint } from '../src/domain/webhook.js';
import { dropTestDb, openTestDb, stack, testCipher } from './stack.js';

/** A page request of the delivery log, as the use case checks one. */
const page = (pageSize: number, pageToken = '') =>
  pageQueryOf({ pageSize, pageToken }, { list: 'webhook_deliveries', default: 50, max: 200 });

// The delivery log and its claims against the real MongoDB-compatible server.
describe('delivery repository', () => {
  let mongo: MongoHandle;
  let deliveries: MongoDeliveryRepository;
  let endpoints: MongoEndpointRepository;
  const cipher = testCipher();

  beforeAll(async () => {
    mongo = await openTestDb();
    deliveries = new MongoDeliveryRepository(mongo.db);
    endpoints = new MongoEndpointRepository(mongo.db);
  });
  afterAll(() => dropTestDb(mongo));

  const endpoint = async (accountId = 'acc'): Promise<Endpoint> => {
    const id = randomUUID();
    const now = new Date();
    const e: Endpoint = {
      id,
      accountId,
      url: 'https://example.com/hook',
      events: ['survey.answered'],
      description: '',
      enabled: true,
      disabledReason: '',
      failingSince: null,
      secrets: [{ sealed: cipher.seal('whsec_x', id), expiresAt: null }],
      createdAt: now,
      updatedAt: now,
    };
    await endpoints.insert(e);
    return e;
  };

  it('stores one delivery per endpoint and event, whatever is redelivered', async () => {
    const e = await endpoint();
    const now = new Date();
    expect(await deliveries.insertNew([newDelivery(e, 'ev-1', 'survey.answered', '{}', now)])).toHaveLength(1);
    expect(
      await deliveries.insertNew([
        newDelivery(e, 'ev-1', 'survey.answered', '{}', now),
        newDelivery(e, 'ev-2', 'survey.answered', '{}', now),
      ]),
    ).toMatchObject([{ eventId: 'ev-2' }]);
    const listed = await deliveries.list('acc', e.id, page(50));
    expect(listed.items.map((d) => d.eventId).sort()).toEqual(['ev-1', 'ev-2']);
    expect(await deliveries.list('other', e.id, page(50))).toEqual({ items: [], nextPageToken: '' });
  });

  it('pages newest first with a page token', async () => {
    const e = await endpoint();
    for (let i = 0; i < 5; i++) await deliveries.insertNew([newDelivery(e, `p-${i}`, 'survey.answered', '{}', new Date(Date.now() + i))]);
    const first = await deliveries.list('acc', e.id, page(2));
    const second = await deliveries.list('acc', e.id, page(2, first.nextPageToken));
    const third = await deliveries.list('acc', e.id, page(2, second.nextPageToken));
    expect([...first.items, ...second.items, ...third.items].map((d) => d.eventId)).toEqual(['p-4', 'p-3', 'p-2', 'p-1', 'p-0']);
    expect(third.nextPageToken).toBe('');
  });

  it('reads a page after a token from an index, not by scanning the collection', async () => {
    const e = await endpoint();
    const other = await endpoint();
    const at = new Date();
    await deliveries.insertNew(Array.from({ length: 30 }, (_, i) => newDelivery(e, `x-${i}`, 'survey.answered', '{}', at)));
    await deliveries.insertNew(Array.from({ length: 30 }, (_, i) => newDelivery(other, `y-${i}`, 'survey.answered', '{}', at)));
    const first = await deliveries.list('acc', e.id, page(10));
    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const monitored = new MongoDeliveryRepository(client.db(mongo.db.databaseName));
      const plans = await explainFinds(client, () => monitored.list('acc', e.id, page(10, first.nextPageToken)));
      expect(plans.length).toBeGreaterThan(0);
      for (const plan of plans) {
        expect(plan.stages).toContain('IXSCAN');
        expect(plan.stages).not.toContain('COLLSCAN');
        expect(plan.indexes).toEqual(['account_endpoint_created']);
        expect(plan.docsExamined).toBeLessThanOrEqual(30);
      }
    } finally {
      await client.close();
    }
  });

  it('a due delivery is claimed by one of several racing claimers; a lapsed claim is taken again', async () => {
    // An instant far in the past: no other test's deliveries are due before it.
    const base = new Date('2001-01-01T00:00:00.000Z');
    const e = await endpoint();
    await deliveries.insertNew([newDelivery(e, 'race', 'survey.answered', '{}', base)]);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => deliveries.claimDue(base, 60_000, `c${i}`, 1)));
    const winners = claims.flat();
    expect(winners).toHaveLength(1);
    expect(await deliveries.claimDue(new Date(base.getTime() + 59_000), 60_000, 'late', 1)).toEqual([]);
    // The winner is killed: once its lease lapses, another sender takes it.
    const [retaken] = await deliveries.claimDue(new Date(base.getTime() + 60_000), 60_000, 'next', 1);
    expect(retaken?.id).toBe(winners[0]!.id);
    // The first claimer's late outcome is not written over the new claim.
    const attempt = { at: base, statusCode: 200, error: '', latencyMs: 1, responseBody: 'ok' };
    const ok = { attempt, status: 'succeeded' as const, nextAttemptAt: null, retryIndex: 0 };
    const killed = `c${claims.findIndex((c) => c.length > 0)}`;
    expect(await deliveries.finish(retaken!.id, killed, ok)).toBe(false);
    expect(await deliveries.finish(retaken!.id, 'next', ok)).toBe(true);
    const stored = await deliveries.find('acc', e.id, retaken!.id);
    expect(stored).toMatchObject({ status: 'succeeded', nextAttemptAt: null, attempts: [attempt] });
    expect(await deliveries.claimDue(new Date(base.getTime() + 10 * 60_000), 60_000, 'again', 1)).toEqual([]);
  });

  it('claims in batches: racing claimers never share a delivery; a lapsed batch is taken again', async () => {
    // Before every other test's instants: only this test's deliveries are due.
    const base = new Date('1990-01-01T00:00:00.000Z');
    const e = await endpoint();
    try {
      const ds = Array.from({ length: 40 }, (_, i) => newDelivery(e, `batch-${i}`, 'survey.answered', '{}', new Date(base.getTime() - i)));
      expect(await deliveries.insertNew(ds)).toHaveLength(40);
      const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => deliveries.claimDue(base, 60_000, `b${i}`, 10)));
      const claimed = claims.flat().map((d) => d.id);
      expect(claimed.length).toBeGreaterThan(0);
      expect(new Set(claimed).size).toBe(claimed.length);
      // Each answered delivery is held by the claim that answered it.
      const stored = mongo.db.collection<{ _id: string; claim_id: string | null }>('deliveries');
      for (const [i, claim] of claims.entries())
        for (const d of claim) expect((await stored.findOne({ _id: d.id }))?.claim_id).toBe(`b${i}`);
      // What the race left is still due, and goes to the next claim, whole.
      const rest = await deliveries.claimDue(base, 60_000, 'rest', 100);
      expect([...claimed, ...rest.map((d) => d.id)].sort()).toEqual(ds.map((d) => d.id).sort());
      // Held until the lease ends; then every one is taken again, and the old claims' outcomes are dropped.
      expect(await deliveries.claimDue(new Date(base.getTime() + 59_000), 60_000, 'late', 100)).toEqual([]);
      const retaken = await deliveries.claimDue(new Date(base.getTime() + 60_000), 60_000, 'next', 100);
      expect(retaken.map((d) => d.id).sort()).toEqual(ds.map((d) => d.id).sort());
      const attempt = { at: base, statusCode: 200, error: '', latencyMs: 1, responseBody: 'ok' };
      const ok = { attempt, status: 'succeeded' as const, nextAttemptAt: null, retryIndex: 0 };
      const first = claims.findIndex((c) => c.length > 0);
      expect(await deliveries.finish(claims[first]![0]!.id, `b${first}`, ok)).toBe(false);
      expect(await deliveries.finish(retaken[0]!.id, 'next', ok)).toBe(true);
    } finally {
      await deliveries.deleteForEndpoint(e.id);
    }
  });

  it("deliveries stored claimed (handed to the sender) are no other claimer's until their lease ends; outcomes written together", async () => {
    const base = new Date('1980-01-01T00:00:00.000Z');
    const e = await endpoint();
    try {
      const ds = Array.from({ length: 6 }, (_, i) => newDelivery(e, `handed-${i}`, 'survey.answered', '{}', base));
      const heldUntil = new Date(base.getTime() + 60_000);
      expect(await deliveries.insertNew(ds.slice(0, 4), { claimId: 'handoff', heldUntil })).toHaveLength(4);
      // A redelivered event's delivery is not new, so it is not handed over again.
      expect(await deliveries.insertNew([ds[0]!, ...ds.slice(4)], { claimId: 'again', heldUntil })).toHaveLength(2);
      expect(await deliveries.claimDue(new Date(base.getTime() + 59_000), 60_000, 'other', 100)).toEqual([]);
      // Concurrent outcomes of one claim, one of them for a delivery the claim does not hold.
      const at = new Date(base.getTime() + 1_000);
      const attempt = (statusCode: number) => ({ at, statusCode, error: '', latencyMs: 1, responseBody: '' });
      const written = await Promise.all([
        deliveries.finish(ds[0]!.id, 'handoff', { attempt: attempt(204), status: 'succeeded', nextAttemptAt: null, retryIndex: 0 }),
        deliveries.finish(ds[1]!.id, 'handoff', { attempt: attempt(500), status: 'pending', nextAttemptAt: heldUntil, retryIndex: 1 }),
        deliveries.finish(ds[2]!.id, 'handoff', { attempt: null, status: 'failed', nextAttemptAt: null, retryIndex: 0, note: 'not sent' }),
        deliveries.finish(ds[4]!.id, 'handoff', { attempt: attempt(204), status: 'succeeded', nextAttemptAt: null, retryIndex: 0 }),
      ]);
      expect(written).toEqual([true, true, true, false]);
      expect(await deliveries.find('acc', e.id, ds[0]!.id)).toMatchObject({ status: 'succeeded', attempts: [attempt(204)], note: '' });
      expect(await deliveries.find('acc', e.id, ds[1]!.id)).toMatchObject({ status: 'pending', retryIndex: 1, nextAttemptAt: heldUntil });
      expect(await deliveries.find('acc', e.id, ds[2]!.id)).toMatchObject({ status: 'failed', attempts: [], note: 'not sent' });
      expect(await deliveries.find('acc', e.id, ds[4]!.id)).toMatchObject({ status: 'pending', attempts: [] });
      // The lease ends: what was not finished is anyone's again (ds[1] is due for its retry then too).
      const retaken = await deliveries.claimDue(heldUntil, 60_000, 'later', 100);
      expect(retaken.map((d) => d.eventId).sort()).toEqual(['handed-1', 'handed-3', 'handed-4', 'handed-5']);
    } finally {
      await deliveries.deleteForEndpoint(e.id);
    }
  });

  it('a delivery stored with its first attempt reads back so, and no claimer takes a finished one', async () => {
    const base = new Date('1981-01-01T00:00:00.000Z');
    const e = await endpoint();
    try {
      const attempt = { at: base, statusCode: 204, error: '', latencyMs: 3, responseBody: 'ok' };
      const fresh = newDelivery(e, 'with-outcome', 'survey.answered', '{}', base);
      const done = { ...fresh, status: 'succeeded' as const, nextAttemptAt: null, attempts: [attempt] };
      const retry = {
        ...newDelivery(e, 'retry-later', 'survey.answered', '{}', base),
        retryIndex: 1,
        attempts: [{ ...attempt, statusCode: 503 }],
      };
      expect(await deliveries.insertNew([done, retry])).toHaveLength(2);
      expect(await deliveries.find('acc', e.id, done.id)).toMatchObject({
        status: 'succeeded',
        attempts: [attempt],
        webhookId: fresh.webhookId,
      });
      const taken = await deliveries.claimDue(new Date(base.getTime() + 1), 60_000, 'claimer', 100);
      expect(taken.map((d) => d.eventId)).toEqual(['retry-later']);
      // The same event again (a redelivered record): the same id, not stored twice.
      expect(newDelivery(e, 'with-outcome', 'survey.answered', '{}', new Date()).id).toBe(done.id);
      expect(await deliveries.insertNew([newDelivery(e, 'with-outcome', 'survey.answered', '{}', new Date())])).toEqual([]);
    } finally {
      await deliveries.deleteForEndpoint(e.id);
    }
  });

  it('a replay makes a finished delivery due again with its webhook id and attempts', async () => {
    const e = await endpoint();
    const d = newDelivery(e, 'replayed', 'survey.answered', '{}', new Date('2001-01-01T00:00:00.000Z'));
    await deliveries.insertNew([d]);
    const attempt = { at: new Date(), statusCode: 500, error: '', latencyMs: 1, responseBody: 'no' };
    await deliveries.claimDue(new Date('2001-01-01T00:00:00.000Z'), 60_000, 'r', 1);
    expect(
      await deliveries.finish(d.id, 'r', { attempt, status: 'failed', nextAttemptAt: null, retryIndex: 3, note: 'retry schedule used up' }),
    ).toBe(true);
    expect(await deliveries.replay('other-account', e.id, d.id, new Date())).toBeNull();
    const replayed = await deliveries.replay('acc', e.id, d.id, new Date());
    expect(replayed).toMatchObject({ status: 'pending', webhookId: d.webhookId, retryIndex: 0, note: '', attempts: [attempt] });
  });

  it('endpoints: subscribed lists enabled endpoints of the account and type; failing since is set once', async () => {
    const e = await endpoint('acc-sub');
    const off = await endpoint('acc-sub');
    await endpoints.disable(off.id, 'test', new Date());
    expect((await endpoints.subscribed('acc-sub', 'survey.answered')).map((x) => x.id)).toEqual([e.id]);
    expect(await endpoints.subscribed('acc-sub', 'sms.failed')).toEqual([]);
    const t1 = new Date('2026-01-01T00:00:00.000Z');
    expect(await endpoints.markFailing(e.id, t1)).toEqual(t1);
    expect(await endpoints.markFailing(e.id, new Date('2026-01-02T00:00:00.000Z'))).toEqual(t1);
    await endpoints.markHealthy(e.id);
    expect((await endpoints.findById(e.id))?.failingSince).toBeNull();
    const back = await endpoints.find('acc-sub', e.id);
    expect(cipher.open(back!.secrets[0]!.sealed, e.id)).toBe('whsec_x');
    expect(() => cipher.open(back!.secrets[0]!.sealed, off.id)).toThrow();
  });
});
