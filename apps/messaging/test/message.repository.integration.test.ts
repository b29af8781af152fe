import { randomUUID } from 'node:crypto';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import { messageId } from '../src/shared/domain/sms-message.js';
import { dropTestDb, openTestDb } from './stack.js';

describe('message records on the stack MongoDB: the at-most-once claim', () => {
  let mongo: MongoHandle;
  let repo: MongoMessageRepository;

  beforeAll(async () => {
    mongo = await openTestDb();
    repo = new MongoMessageRepository(mongo.db);
  });
  afterAll(async () => {
    await dropTestDb(mongo);
  });

  const claimOf = (sharingId: string, phone: string) => ({
    id: messageId(sharingId, phone),
    accountId: 'acc',
    sharingId,
    campaignId: 'camp',
    phone,
    text: 'hello',
    provider: 'outbox',
    createdAt: new Date(),
  });

  it('20 concurrent claims of one (sharing, phone): exactly one winner', async () => {
    const c = claimOf(randomUUID(), '905321234567');
    const results = await Promise.all(Array.from({ length: 20 }, () => repo.claim(c)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect((await repo.findById(c.id))?.status).toBe('sending');
  });

  it('a retryable record is claimed again by exactly one of 20, and a sent one by none', async () => {
    const c = claimOf(randomUUID(), '905321234568');
    const first = await repo.claim(c);
    await repo.finishMany([{ id: c.id, attempt: first!.attempts, status: 'retryable', error: 'ECONNREFUSED', at: new Date() }]);
    const again = await Promise.all(Array.from({ length: 20 }, () => repo.claim(c)));
    const winners = again.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.attempts).toBe(2);

    await repo.finishMany([{ id: c.id, attempt: 2, status: 'sent', providerMessageId: 'p-1', at: new Date() }]);
    expect(await repo.claim(c)).toBeNull();
    expect(await repo.findById(c.id)).toMatchObject({ status: 'sent', providerMessageId: 'p-1', attempts: 2 });
  });

  it('finishMany only moves the claimer’s own attempt, and a delivery report that came first stays', async () => {
    const c = claimOf(randomUUID(), '905321234569');
    const claimed = await repo.claim(c);
    expect(await repo.applyDeliveryReport(c.id, 'delivered', new Date())).toMatchObject({ status: 'delivered' });
    await repo.finishMany([{ id: c.id, attempt: claimed!.attempts, status: 'sent', at: new Date() }]);
    expect((await repo.findById(c.id))?.status).toBe('delivered');
    // A final status is not overwritten by a later report.
    expect(await repo.applyDeliveryReport(c.id, 'failed', new Date())).toBeNull();
    expect((await repo.findById(c.id))?.status).toBe('delivered');
  });

  it('of 10 racing failing reports one wins, keeps its error and owes its event until it is published', async () => {
    const c = claimOf(randomUUID(), '905321234570');
    await repo.claim(c);
    const at = new Date();
    const error = { status: '2', code: '001', description: 'UNDELIV' };
    const results = await Promise.all(Array.from({ length: 10 }, () => repo.applyDeliveryReport(c.id, 'failed', at, error)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await repo.findById(c.id)).toMatchObject({ status: 'failed', deliveryError: error });

    const owed = async (before: Date) => (await repo.unpublishedReports(before, 100)).map((m) => m.id);
    expect(await owed(new Date(at.getTime() - 1))).not.toContain(c.id);
    expect(await owed(at)).toContain(c.id);
    await repo.reportPublished(c.id, 'failed');
    expect(await owed(new Date())).not.toContain(c.id);
  });

  it('findMany reads every record of a list longer than one find (in finds of 100 ids), missing ids left out', async () => {
    const sharingId = randomUUID();
    const phones = Array.from({ length: 250 }, (_, i) => `90532${String(i).padStart(7, '0')}`);
    await repo.claimMany(phones.map((p) => claimOf(sharingId, p)));
    const ids = phones.flatMap((p) => [messageId(sharingId, p), messageId(sharingId, p, 1)]);
    const found = await repo.findMany(ids);
    expect(found.map((m) => m.phone).sort()).toEqual(phones);
  });

  it('lists a sharing’s records', async () => {
    const sharingId = randomUUID();
    await repo.claim(claimOf(sharingId, '905321234500'));
    await repo.claim(claimOf(sharingId, '905321234501'));
    await repo.claim(claimOf(randomUUID(), '905321234500'));
    expect((await repo.listBySharing(sharingId)).map((m) => m.phone)).toEqual(['905321234500', '905321234501']);
  });
});
