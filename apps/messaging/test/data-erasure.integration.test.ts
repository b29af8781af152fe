import { PersonalDataProtector } from '@feedback/kit-core';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErasedOptOuts } from '../src/opt-outs/adapters/erased-opt-outs.js';
import { MongoMessagingPersonalData } from '../src/erasure/adapters/mongo/messaging-personal-data.repository.js';
import { MongoOptOutRepository } from '../src/opt-outs/adapters/mongo/opt-out.repository.js';
import { OptOutSnapshots } from '../src/opt-outs/adapters/opt-out.snapshots.js';
import { eraseMessagingData } from '../src/erasure/domain/data-erasure.use-cases.js';
import { dropTestDb, logger, openTestDb } from './stack.js';

// The erasure's writes on the stack's MongoDB-wire server, and the suppression check after them.
describe('messaging data erasure on MongoDB', () => {
  let mongo: MongoHandle;
  const protector = new PersonalDataProtector(Buffer.alloc(32, 6));
  const [PHONE, OTHER] = ['905321112233', '905320000000'];

  beforeAll(async () => {
    mongo = await openTestDb();
  });
  afterAll(() => dropTestDb(mongo));

  it('deletes the messages to the phone, keeps its opt-out as a hash that a loaded snapshot and the database both still match', async () => {
    const store = new MongoOptOutRepository(mongo.db);
    const snapshots = new OptOutSnapshots(store, store, { maxPhones: 1_000, logger });
    const optOuts = new ErasedOptOuts(snapshots, (p) => protector.hashes(p, 'phone'));
    const onDatabase = new ErasedOptOuts(store, (p) => protector.hashes(p, 'phone'));
    await store.addMany({ accountId: 'acc-1', phones: [PHONE, OTHER], source: 'keyword', at: new Date() });
    await snapshots.ready('acc-1');
    const messages = mongo.db.collection('sms_messages');
    await messages.insertMany([
      { _id: `s1.${PHONE}`, account_id: 'acc-1', sharing_id: 's1', phone: PHONE },
      { _id: `s1.${OTHER}`, account_id: 'acc-1', sharing_id: 's1', phone: OTHER },
      { _id: `s9.${PHONE}`, account_id: 'acc-2', sharing_id: 's9', phone: PHONE },
    ] as never[]);
    await mongo.db
      .collection('sharing_recipients')
      .insertOne({ _id: 's1.0', sharing_id: 's1', recipients: [{ phone: PHONE }, { phone: OTHER }] } as never);

    const deps = { personalData: new MongoMessagingPersonalData(mongo.db), hashPhone: (p: string) => protector.hash(p, 'phone') };
    const request = { erasureId: 'e1', accountId: 'acc-1', phones: [PHONE] };
    expect(await eraseMessagingData(deps, request)).toEqual({ messages: 1, optOutsKept: 1 });

    expect((await messages.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id).sort()).toEqual([
      `s1.${OTHER}`,
      `s9.${PHONE}`,
    ]);
    const chunk = await mongo.db.collection('sharing_recipients').findOne({ _id: 's1.0' as never });
    expect(chunk?.recipients).toEqual([{ phone: OTHER }]);
    expect(JSON.stringify(await mongo.db.collection('sms_opt_outs').find({}).toArray())).not.toContain(PHONE);
    for (const lookup of [optOuts, onDatabase])
      expect(await lookup.findOptedOut('acc-1', [PHONE, OTHER, '905329999999'])).toEqual(new Set([PHONE, OTHER]));

    // Redelivered: nothing left to delete, the same opt-out counted.
    expect(await eraseMessagingData(deps, request)).toEqual({ messages: 0, optOutsKept: 1 });
  });
});
