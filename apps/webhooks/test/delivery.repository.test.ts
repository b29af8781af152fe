import { randomUUID } from 'node:crypto';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoDeliveryRepository } from '../src/adapters/mongo/delivery.repository.js';
import { MongoEndpointRepository } from '../src/adapters/mongo/endpoint.repository.js';
import { newDelivery } from '../src/domain/endpoint.use-cases.js';
import type { Endpoint } from '../src/domain/webhook.js';
import { dropTestDb, openTestDb, testCipher } from './stack.js';

// The delivery log and its claims against the real MongoDB-compatible server.
describe('delivery repository', () => {
  let mongo: MongoHandle;
  let deliveries: MongoDeliveryRepository;
  let endpoints: MongoEndpointRepository;
  const cipher = testCipher();
  const deps = { newId: randomUUID };

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
    expect(await deliveries.insertNew([newDelivery(deps, e, 'ev-1', 'survey.answered', '{}', now)])).toBe(1);
    expect(
      await deliveries.insertNew([
        newDelivery(deps, e, 'ev-1', 'survey.answered', '{}', now),
        newDelivery(deps, e, 'ev-2', 'survey.answered', '{}', now),
      ]),
    ).toBe(1);
    const page = await deliveries.list('acc', e.id, 50, '');
    expect(page.items.map((d) => d.eventId).sort()).toEqual(['ev-1', 'ev-2']);
    expect(await deliveries.list('other', e.id, 50, '')).toEqual({ items: [], nextCursor: '' });
  });

  it('pages newest first with a cursor', async () => {
    const e = await endpoint();
    for (let i = 0; i < 5; i++)
      await deliveries.insertNew([newDelivery(deps, e, `p-${i}`, 'survey.answered', '{}', new Date(Date.now() + i))]);
    const first = await deliveries.list('acc', e.id, 2, '');
    const second = await deliveries.list('acc', e.id, 2, first.nextCursor);
    const third = await deliveries.list('acc', e.id, 2, second.nextCursor);
    expect([...first.items, ...second.items, ...third.items].map((d) => d.eventId)).toEqual(['p-4', 'p-3', 'p-2', 'p-1', 'p-0']);
    expect(third.nextCursor).toBe('');
  });

  it('a due delivery is claimed by one of several racing claimers; a lapsed claim is taken again', async () => {
    // An instant far in the past: no other test's deliveries are due before it.
    const base = new Date('2001-01-01T00:00:00.000Z');
    const e = await endpoint();
    await deliveries.insertNew([newDelivery(deps, e, 'race', 'survey.answered', '{}', base)]);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => deliveries.claimDue(base, 60_000, `c${i}`)));
    const winners = claims.filter((c) => c !== null);
    expect(winners).toHaveLength(1);
    expect(await deliveries.claimDue(new Date(base.getTime() + 59_000), 60_000, 'late')).toBeNull();
    // The winner is killed: once its lease lapses, another sender takes it.
    const retaken = await deliveries.claimDue(new Date(base.getTime() + 60_000), 60_000, 'next');
    expect(retaken?.id).toBe(winners[0]!.id);
    // The first claimer's late outcome is not written over the new claim.
    const attempt = { at: base, statusCode: 200, error: '', latencyMs: 1, responseBody: 'ok' };
    const ok = { attempt, status: 'succeeded' as const, nextAttemptAt: null, retryIndex: 0 };
    const killed = `c${claims.findIndex((c) => c !== null)}`;
    expect(await deliveries.finish(retaken!.id, killed, ok)).toBe(false);
    expect(await deliveries.finish(retaken!.id, 'next', ok)).toBe(true);
    const stored = await deliveries.find('acc', e.id, retaken!.id);
    expect(stored).toMatchObject({ status: 'succeeded', nextAttemptAt: null, attempts: [attempt] });
    expect(await deliveries.claimDue(new Date(base.getTime() + 10 * 60_000), 60_000, 'again')).toBeNull();
  });

  it('a replay makes a finished delivery due again with its webhook id and attempts', async () => {
    const e = await endpoint();
    const d = newDelivery(deps, e, 'replayed', 'survey.answered', '{}', new Date('2001-01-01T00:00:00.000Z'));
    await deliveries.insertNew([d]);
    const attempt = { at: new Date(), statusCode: 500, error: '', latencyMs: 1, responseBody: 'no' };
    await deliveries.claimDue(new Date('2001-01-01T00:00:00.000Z'), 60_000, 'r');
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
