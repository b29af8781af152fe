import { randomUUID } from 'node:crypto';
import { explainFinds } from '@feedback/dev-stack';
import type { MongoHandle } from '@feedback/kit-stores';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import { MongoSharingRepository } from '../src/shared/adapters/mongo/sharing.repository.js';
import type { Recipient, SmsSharing } from '../src/shared/domain/sharing.js';
import { messageId, type SmsMessage } from '../src/shared/domain/sms-message.js';
import { dropTestDb, openTestDb, stack, testSensitive } from './stack.js';

// What a page of a sharing's recipients reads on the stack's MongoDB: one recipient document's
// phones by its place, whether a phone is a recipient, and the records of a page's phones only.

describe('a page of recipients on the stack MongoDB', () => {
  let mongo: MongoHandle;
  let sharings: MongoSharingRepository;
  let messages: MongoMessageRepository;
  beforeAll(async () => {
    mongo = await openTestDb();
    sharings = new MongoSharingRepository(mongo.db, testSensitive);
    messages = new MongoMessageRepository(mongo.db);
  });
  afterAll(() => dropTestDb(mongo));

  const phoneOf = (i: number) => `90532${String(i).padStart(7, '0')}`;
  async function stored(count: number, accountId = 'acc'): Promise<SmsSharing> {
    const s: SmsSharing = {
      id: randomUUID(),
      accountId,
      campaignId: 'camp',
      createdAt: new Date(),
      accepted: count,
      duplicates: 0,
      rejected: [],
      scheduledFor: null,
      cancelledAt: null,
    };
    const writer = sharings.writeRecipients(s.id);
    const recipients: Recipient[] = Array.from({ length: count }, (_, i) => ({
      phone: phoneOf(i),
      input: `0532 ${i}`,
      attributes: { name: `N${i}` },
      builtInResponses: {},
    }));
    await writer.add(recipients);
    await writer.complete(s);
    return s;
  }
  const record = (s: SmsSharing, phone: string, reminder = 0): SmsMessage => ({
    id: messageId(s.id, phone, reminder),
    accountId: s.accountId,
    sharingId: s.id,
    campaignId: s.campaignId,
    phone,
    text: 'x',
    provider: 'outbox',
    status: 'delivered',
    attempts: 1,
    providerMessageId: null,
    error: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    reminder,
  });

  it('reads one recipient document’s phones by its place, in the order of the whole list', async () => {
    const s = await stored(2_300);
    const docs: string[][] = [];
    for (let i = 0; ; i++) {
      const phones = await sharings.recipientPhonesAt(s.id, i);
      if (!phones) break;
      docs.push(phones);
    }
    expect(docs.map((d) => d.length)).toEqual([1_000, 1_000, 300]);
    const all: string[] = [];
    for await (const page of sharings.recipientPages(s.id)) all.push(...page.map((r) => r.phone));
    expect(docs.flat()).toEqual(all);
    expect(await sharings.recipientPhonesAt(randomUUID(), 0)).toBeNull();
    expect(await sharings.hasRecipient(s.id, phoneOf(2_299))).toBe(true);
    expect(await sharings.hasRecipient(s.id, phoneOf(2_300))).toBe(false);

    // Each read by an index, never a walk through every sharing's recipients.
    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const monitored = new MongoSharingRepository(client.db(mongo.db.databaseName), testSensitive);
      const plans = await explainFinds(client, async () => {
        await monitored.recipientPhonesAt(s.id, 1);
        await monitored.recipientPhonesAt(s.id, 3);
        await monitored.hasRecipient(s.id, phoneOf(2_300));
      });
      expect(plans.length).toBeGreaterThanOrEqual(3);
      for (const plan of plans) expect(plan.stages).not.toContain('COLLSCAN');
    } finally {
      await client.close();
    }
  });

  it('reads records by their ids with the _id index', async () => {
    const s = await stored(20);
    await messages.recordMany([record(s, phoneOf(1)), record(s, phoneOf(1), 1)]);
    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const monitored = new MongoMessageRepository(client.db(mongo.db.databaseName));
      const ids = [0, 1, 2, 3].map((n) => messageId(s.id, phoneOf(1), n));
      let found: SmsMessage[] = [];
      const plans = await explainFinds(client, async () => void (found = await monitored.findMany(ids)));
      expect(found.map((m) => m.reminder ?? 0).sort()).toEqual([0, 1]);
      expect(plans).toHaveLength(1);
      expect(plans[0]!.stages).not.toContain('COLLSCAN');
    } finally {
      await client.close();
    }
  });

  it('reads a status’s first messages in phone order by index sharing_status_id, a narrow range at a time', async () => {
    const s = await stored(1_200);
    const statusOf = (i: number) => (i % 40 === 7 ? 'failed' : 'delivered');
    const records = Array.from({ length: 1_200 }, (_, i) => ({ ...record(s, phoneOf(i)), status: statusOf(i) }) as SmsMessage);
    // A failed reminder of a delivered recipient is no failed recipient.
    await messages.recordMany([...records, { ...record(s, phoneOf(8), 2), status: 'failed' }]);
    const failed = Array.from({ length: 1_200 }, (_, i) => i)
      .filter((i) => statusOf(i) === 'failed')
      .map(phoneOf);
    expect(await messages.firstsWithStatus({ sharingId: s.id, status: 'failed', after: '', limit: 100, near: phoneOf(500) })).toEqual(
      failed,
    );
    expect(await messages.firstsWithStatus({ sharingId: s.id, status: 'failed', after: phoneOf(7), limit: 3 })).toEqual(failed.slice(1, 4));
    expect(await messages.firstsWithStatus({ sharingId: s.id, status: 'cancelled', after: '', limit: 10 })).toEqual([]);

    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const monitored = new MongoMessageRepository(client.db(mongo.db.databaseName));
      let found: string[] = [];
      const plans = await explainFinds(client, async () => {
        found = await monitored.firstsWithStatus({ sharingId: s.id, status: 'delivered', after: phoneOf(100), limit: 20 });
      });
      expect(found).toHaveLength(20);
      // The first range (the next 29 phones) holds the page: it read those, not the status's 1,000 others.
      expect(plans).toHaveLength(1);
      expect(plans[0]!.indexes).toEqual(['sharing_status_id']);
      expect(plans[0]!.docsExamined).toBeLessThanOrEqual(29);
    } finally {
      await client.close();
    }
  });
});
