import { randomUUID } from 'node:crypto';
import { explainFinds } from '@feedback/dev-stack';
import { encodePageToken, pageQueryOf } from '@feedback/kit-core';
import type { MongoHandle } from '@feedback/kit-stores';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoSharingRepository } from '../src/shared/adapters/mongo/sharing.repository.js';
import { SHARINGS_PAGE } from '../src/intake/domain/sharing-list.use-cases.js';
import { sharingState, type Recipient, type SmsSharing } from '../src/shared/domain/sharing.js';
import type { SharingListQuery } from '../src/shared/ports.js';
import { dropTestDb, openTestDb, stack, testSensitive } from './stack.js';

describe('sharings and their recipients on the stack MongoDB', () => {
  let mongo: MongoHandle;
  let repo: MongoSharingRepository;

  beforeAll(async () => {
    mongo = await openTestDb();
    repo = new MongoSharingRepository(mongo.db, testSensitive);
  });
  afterAll(async () => {
    await dropTestDb(mongo);
  });

  const sharing = (accepted: number): SmsSharing => ({
    id: randomUUID(),
    accountId: 'acc',
    campaignId: 'camp',
    createdAt: new Date(),
    accepted,
    duplicates: 0,
    rejected: [],
    scheduledFor: null,
    cancelledAt: null,
  });
  const recipient = (i: number, attributes: Record<string, string> = {}): Recipient => ({
    phone: `90532${String(i).padStart(7, '0')}`,
    input: `0532 ${i}`,
    attributes,
    builtInResponses: { customerDetailInfo1: `r${i}` },
  });
  const chunks = (id: string) => mongo.db.collection('sharing_recipients').find({ sharing_id: id }).toArray();
  /** As the use case stores a sharing: its recipients in `slices` parts, then the sharing. */
  const insert = async (s: SmsSharing, recipients: Recipient[], slices = 1) => {
    const writer = repo.writeRecipients(s.id);
    const size = Math.max(1, Math.ceil(recipients.length / slices));
    for (let i = 0; i < recipients.length; i += size) await writer.add(recipients.slice(i, i + size));
    await writer.complete(s);
  };

  it('stores 2,500 recipients as a few documents, lists every phone in order, and a repeat doubles nothing', async () => {
    const s = sharing(2_500);
    const recipients = Array.from({ length: 2_500 }, (_, i) => recipient(2_499 - i, { name: `Ş${i}` }));
    await insert(s, recipients);
    await insert(s, recipients); // the create repeated after a lost answer
    expect((await chunks(s.id)).map((c) => c.recipients.length)).toEqual([1_000, 1_000, 500]);
    const phones = await repo.listRecipientPhones(s.id);
    expect(phones).toHaveLength(2_500);
    expect(phones).toEqual([...phones].sort());
    expect(phones[0]).toBe(recipient(0).phone);
    const stored = (await chunks(s.id)).flatMap((c) => c.recipients).find((r: { phone: string }) => r.phone === recipient(7).phone);
    expect(stored).toEqual({
      phone: recipient(7).phone,
      input: '0532 7',
      attributes: { name: 'Ş2492' },
      built_in_responses: { customerDetailInfo1: 'r7' },
    });
    expect(await repo.findById('acc', s.id)).toMatchObject({ accepted: 2_500 });
  });

  it('starts a new document before one would grow past its size bound', async () => {
    const s = sharing(40);
    const big = { notes: 'ç'.repeat(1_000), ...Object.fromEntries(Array.from({ length: 49 }, (_, k) => [`a${k}`, 'x'.repeat(1_000)])) };
    await insert(
      s,
      Array.from({ length: 40 }, (_, i) => recipient(i, big)),
    );
    const docs = await chunks(s.id);
    expect(docs.length).toBeGreaterThan(1);
    expect(docs.reduce((n, c) => n + c.recipients.length, 0)).toBe(40);
    expect(await repo.listRecipientPhones(s.id)).toHaveLength(40);
  });

  it('numbers the chunks of recipients added in slices one after another, and a repeat in the same slices doubles nothing', async () => {
    const s = sharing(2_500);
    const recipients = Array.from({ length: 2_500 }, (_, i) => recipient(i));
    await insert(s, recipients, 2);
    await insert(s, recipients, 2);
    const docs = (await chunks(s.id)).sort((a, b) => Number(String(a._id).split('.')[1]) - Number(String(b._id).split('.')[1]));
    expect(docs.map((c) => [c._id, c.recipients.length])).toEqual([
      [`${s.id}.0`, 1_000],
      [`${s.id}.1`, 250],
      [`${s.id}.2`, 1_000],
      [`${s.id}.3`, 250],
    ]);
    expect(await repo.listRecipientPhones(s.id)).toHaveLength(2_500);
  });

  it('fails complete() when a recipients write failed, and the sharing is not stored', async () => {
    const s = sharing(2);
    const writer = repo.writeRecipients(s.id);
    await writer.add([recipient(1)]);
    await writer.add([recipient(2, { 'bad\u0000key': 'x' })]); // BSON refuses a key with a NUL byte
    await expect(writer.complete(s)).rejects.toThrow();
    expect(await repo.findById('acc', s.id)).toBeNull();
  });

  it('still reads recipients stored one per document (the earlier shape)', async () => {
    const s = sharing(2);
    await insert(s, []);
    await mongo.db.collection<{ _id: string; [field: string]: unknown }>('sharing_recipients').insertMany([
      { _id: `${s.id}.905320000002`, sharing_id: s.id, phone: '905320000002', input: 'b', attributes: {}, built_in_responses: {} },
      { _id: `${s.id}.905320000001`, sharing_id: s.id, phone: '905320000001', input: 'a', attributes: {}, built_in_responses: {} },
    ]);
    expect(await repo.listRecipientPhones(s.id)).toEqual(['905320000001', '905320000002']);
  });

  it("sweeps the window's incomplete, due sharings with phones oldest first, page after page, from an index", async () => {
    const t0 = Date.parse('2026-10-01T10:00:00.000Z');
    const at = (s: number) => new Date(t0 + s * 1_000);
    const put = async (n: number, s: number, extra: Partial<SmsSharing> = {}) => {
      const made = { ...sharing(1), id: `sweep-${String(n).padStart(2, '0')}`, createdAt: at(s), ...extra };
      await insert(made, []);
      return made.id;
    };
    await put(0, -100); // before the window
    const due: string[] = [];
    for (let n = 1; n <= 6; n++) due.push(await put(n, 10)); // one instant
    await put(7, 11, { scheduledFor: at(10_000) }); // not due yet
    await put(8, 12, { accepted: 0 }); // no phone to send to
    due.push(await put(9, 13, { scheduledFor: at(5) }));
    due.push(await put(10, 14));
    await mongo.db.collection<{ _id: string }>('sharings').updateOne({ _id: await put(11, 15) }, { $set: { completed_at: at(20) } });
    const window = { since: at(0), now: at(100) };
    const seen: string[] = [];
    let after: { createdAt: Date; id: string } | null = { createdAt: at(-200), id: 'z' }; // a key older than the window
    for (let page = 0; page < 10; page++) {
      const open = await repo.incomplete({ ...window, after, limit: 4 });
      seen.push(...open.map((s) => s.id));
      if (open.length < 4) break;
      after = { createdAt: open.at(-1)!.createdAt, id: open.at(-1)!.id };
    }
    // Other tests' sharings of this database are made now, after these: only these are compared.
    expect(seen.filter((id) => id.startsWith('sweep-'))).toEqual(due);

    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const monitored = new MongoSharingRepository(client.db(mongo.db.databaseName), testSensitive);
      const plans = await explainFinds(client, () =>
        monitored.incomplete({ ...window, after: { createdAt: at(10), id: due[2]! }, limit: 4 }),
      );
      expect(plans).toHaveLength(2); // the rest of the instant, then the newer ones
      for (const plan of plans) {
        expect(plan.stages).toContain('IXSCAN');
        expect(plan.stages).not.toContain('COLLSCAN');
        expect(plan.indexes).toEqual(['completed_created_id']);
      }
    } finally {
      await client.close();
    }
  });

  it("lists an account's sharings newest first by campaign, status and date range, page after page, from an index", async () => {
    const t0 = Date.parse('2026-10-05T10:00:00.000Z');
    const at = (s: number) => new Date(t0 + s * 1_000);
    const account = `list-${randomUUID()}`;
    const put = async (n: number, s: number, extra: Partial<SmsSharing> = {}) => {
      const made = { ...sharing(1), id: `list-${String(n).padStart(2, '0')}`, accountId: account, createdAt: at(s), ...extra };
      await insert(made, []);
      return made.id;
    };
    const made: string[] = [];
    for (let n = 1; n <= 4; n++) made.push(await put(n, 10)); // one instant
    made.push(await put(5, 20, { campaignId: 'camp-2' }));
    made.push(await put(6, 30, { cancelledAt: at(31) }));
    await mongo.db.collection<{ _id: string }>('sharings').updateOne({ _id: await put(7, 40) }, { $set: { completed_at: at(45) } });
    made.push('list-07');
    await put(8, 50, { accountId: 'someone-else' });
    const newestFirst = [...made].reverse(); // same instant: ties by id, descending too

    const readAll = async (q: Omit<SharingListQuery, 'page' | 'accountId'>, size: number) => {
      const seen: string[] = [];
      let token = '';
      do {
        const page = await repo.list({ accountId: account, ...q, page: pageQueryOf({ pageSize: size, pageToken: token }, SHARINGS_PAGE) });
        seen.push(...page.items.map((i) => i.id));
        token = page.nextPageToken;
      } while (token);
      return seen;
    };
    expect(await readAll({}, 3)).toEqual(newestFirst);
    expect(await readAll({ campaignId: 'camp' }, 2)).toEqual(newestFirst.filter((id) => id !== 'list-05'));
    // The lower bound holds on the pages after the first too.
    expect(await readAll({ createdAfter: at(10), createdBefore: at(40) }, 2)).toEqual([
      'list-06',
      'list-05',
      'list-04',
      'list-03',
      'list-02',
      'list-01',
    ]);
    expect(await readAll({ accept: (s) => sharingState(s, at(100)) === 'completed' }, 1)).toEqual(['list-07']);
    expect(
      (await repo.list({ accountId: account, page: pageQueryOf({}, SHARINGS_PAGE) })).items.find((s) => s.id === 'list-07')?.completedAt,
    ).toEqual(at(45));

    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const monitored = new MongoSharingRepository(client.db(mongo.db.databaseName), testSensitive);
      const after = pageQueryOf(
        { pageSize: 2, pageToken: encodePageToken(SHARINGS_PAGE.list, { at: at(10), id: 'list-03' }) },
        SHARINGS_PAGE,
      );
      for (const [q, index] of [
        [{}, 'account_created_id'],
        [{ campaignId: 'camp' }, 'account_campaign_created_id'],
      ] as const) {
        const plans = await explainFinds(client, () => monitored.list({ accountId: account, ...q, page: after }));
        expect(plans).toHaveLength(2); // the rest of the instant, then the older ones
        for (const plan of plans) {
          expect(plan.stages).toContain('IXSCAN');
          expect(plan.stages).not.toContain('COLLSCAN');
          expect(plan.indexes).toEqual([index]);
        }
      }
    } finally {
      await client.close();
    }
  });
});
