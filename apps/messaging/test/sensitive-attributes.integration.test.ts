import { randomUUID } from 'node:crypto';
import type { MongoHandle } from '@feedback/kit-stores';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSensitiveRecipientAttributes } from '../src/shared/adapters/mongo/sensitive-attributes.migration.js';
import { MongoSharingRepository } from '../src/shared/adapters/mongo/sharing.repository.js';
import type { Recipient, SmsSharing } from '../src/shared/domain/sharing.js';
import { dropTestDb, logger, openTestDb, testSensitive } from './stack.js';

const TCKN = '10000000146';

/** A sharing's recipients on the stack's MongoDB: their TCKN (and `vkn`) never rests in clear. */
describe('sensitive custom attributes of stored recipients', () => {
  let mongo: MongoHandle;
  let repo: MongoSharingRepository;
  const chunks = (sharingId: string) => mongo.db.collection<Document>('sharing_recipients').find({ sharing_id: sharingId }).toArray();
  const recipient = (i: number, attributes: Record<string, string>): Recipient => ({
    phone: `90532${String(i).padStart(7, '0')}`,
    input: `0532 ${i}`,
    attributes,
    builtInResponses: {},
  });
  const sharing = (id: string, scheduledFor: Date | null): SmsSharing => ({
    id,
    accountId: 'acc',
    campaignId: 'camp',
    createdAt: new Date(),
    accepted: 2,
    duplicates: 0,
    rejected: [],
    scheduledFor,
    cancelledAt: null,
  });
  const store = async (keepSensitive: boolean) => {
    const id = randomUUID();
    const writer = repo.writeRecipients(id, { keepSensitive });
    await writer.add([recipient(1, { name: 'Ayşe', TCKN, vkn: '1234567890' }), recipient(2, { name: 'Can' })]);
    await writer.complete(sharing(id, keepSensitive ? new Date(Date.now() + 3_600_000) : null));
    return id;
  };
  const pages = async (id: string) => {
    const all: Recipient[] = [];
    for await (const page of repo.recipientPages(id)) all.push(...page);
    return all.map((r) => r.attributes);
  };

  beforeAll(async () => {
    mongo = await openTestDb();
    repo = new MongoSharingRepository(mongo.db, testSensitive);
  });
  afterAll(() => dropTestDb(mongo));

  it('a sharing sent at once stores none of them', async () => {
    const id = await store(false);
    expect(JSON.stringify(await chunks(id))).not.toMatch(/10000000146|1234567890/);
    expect(await pages(id)).toEqual([{ name: 'Ayşe' }, { name: 'Can' }]);
  });

  it('a deferred sharing keeps them sealed, gives them back to its release, and forgets them after', async () => {
    const id = await store(true);
    const stored = await chunks(id);
    expect(JSON.stringify(stored)).not.toMatch(/10000000146|1234567890/);
    expect(stored[0]?.sensitive).toMatch(/^pds1\./);
    expect(await pages(id)).toEqual([{ name: 'Ayşe', TCKN, vkn: '1234567890' }, { name: 'Can' }]);
    await repo.dropSensitiveAttributes(id);
    expect((await chunks(id))[0]?.sensitive).toBeUndefined();
    expect(await pages(id)).toEqual([{ name: 'Ayşe' }, { name: 'Can' }]);
  });

  it('the start-up pass takes them out of the recipients earlier versions stored, sealing only those of a release still waiting', async () => {
    const [sent, waiting, single] = [randomUUID(), randomUUID(), randomUUID()];
    const earlier = (sharingId: string) => ({
      _id: `${sharingId}.0`,
      sharing_id: sharingId,
      recipients: [
        { phone: '905321111111', input: '1', attributes: { tckn: TCKN, city: 'Bursa' }, built_in_responses: {} },
        { phone: '905321111112', input: '2', attributes: { VKN: '1234567890' }, built_in_responses: {} },
      ],
    });
    await mongo.db.collection<Document & { _id: string }>('sharing_recipients').insertMany([
      earlier(sent),
      earlier(waiting),
      // The first shape: one recipient per document, its fields at the top.
      { _id: `${single}.905321111113`, sharing_id: single, phone: '905321111113', input: '3', attributes: { Tckn: TCKN } },
    ]);
    await mongo.db.collection<Document & { _id: string }>('sms_jobs').insertMany([
      { _id: `${sent}.j0`, sharing_id: sent, state: 'done' },
      { _id: `${waiting}.j0`, sharing_id: waiting, state: 'waiting' },
    ]);

    const run = () => stripSensitiveRecipientAttributes(mongo.db, { sensitive: testSensitive, logger, batch: 2 });
    const [a, b] = await Promise.all([run(), run()]);
    expect([a, b].reduce((n, r) => n + (r === 'done before' ? 0 : r.rewritten), 0)).toBe(3);
    const all = await mongo.db.collection<Document>('sharing_recipients').find({}).toArray();
    expect(JSON.stringify(all)).not.toMatch(/10000000146|1234567890/);

    expect(await pages(sent)).toEqual([{ city: 'Bursa' }, {}]);
    expect(await pages(waiting)).toEqual([{ tckn: TCKN, city: 'Bursa' }, { VKN: '1234567890' }]);
    expect(await pages(single)).toEqual([{}]);
    expect(await run()).toBe('done before');
  });
});
