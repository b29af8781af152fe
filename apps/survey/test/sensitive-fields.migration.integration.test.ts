import { PersonalDataProtector } from '@feedback/kit-core';
import type { MongoHandle } from '@feedback/kit-stores';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSensitiveCustomerFields } from '../src/adapters/mongo/sensitive-fields.migration.js';
import { dropTestDb, logger, openTestDb, uniq } from './stack.js';

/** Customers as earlier versions wrote them (clear TCKNs), rewritten by the start-up migration on the real server. */
describe('hashSensitiveCustomerFields, at start-up on a database of an earlier version', () => {
  let mongo: MongoHandle;
  const protector = new PersonalDataProtector(Buffer.alloc(32, 9));
  const hash = (v: string, name: string) => protector.hash(v, `customer.${name}`);
  const config = { sensitiveAttributes: ['vkn'] };
  const at = new Date('2026-11-20T10:00:00Z');
  const customer = (id: string, schema: Record<string, string>, attributes: Record<string, string>) => ({
    _id: id,
    account_id: 'acc',
    phone: `90532${id.padStart(7, '0')}`,
    schema,
    attributes,
    created_at: at,
    updated_at: at,
  });

  beforeAll(async () => {
    mongo = await openTestDb(uniq('survey_migration').replace('-', '_'));
    await mongo.db
      .collection<Document & { _id: string }>('customers')
      .insertMany([
        customer('1', { TCKN: '10000000146', tier: 'gold' }, { tckn: '10000000146', city: 'Bursa' }),
        customer('2', { TCKN: ' 20000000046 ' }, { Tckn: '20000000046', VKN: '1234567890' }),
        customer('3', {}, { city: 'Izmir' }),
        customer('4', { TCKN: hash('30000000046', 'tckn') }, {}),
        customer('5', { TCKN: '40000000046' }, {}),
      ]);
  });
  afterAll(() => dropTestDb(mongo));

  it('two replicas at once, in small batches: every clear sensitive field hashed, nothing else touched', async () => {
    const run = () => hashSensitiveCustomerFields(mongo.db, { config, hasher: protector, logger, batch: 2 });
    const [a, b] = await Promise.all([run(), run()]);
    // Each field is rewritten once, by whichever replica got there first.
    const rewritten = [a, b].reduce((n, r) => n + (r === 'done before' ? 0 : r.rewritten), 0);
    expect(rewritten).toBe(6);

    const docs = await mongo.db.collection<Document & { _id: string }>('customers').find({}).sort({ _id: 1 }).toArray();
    expect(docs.map((d) => [d.schema, d.attributes])).toEqual([
      [
        { TCKN: hash('10000000146', 'tckn'), tier: 'gold' },
        { tckn: hash('10000000146', 'tckn'), city: 'Bursa' },
      ],
      [{ TCKN: hash('20000000046', 'tckn') }, { Tckn: hash('20000000046', 'tckn'), VKN: hash('1234567890', 'vkn') }],
      [{}, { city: 'Izmir' }],
      [{ TCKN: hash('30000000046', 'tckn') }, {}],
      [{ TCKN: hash('40000000046', 'tckn') }, {}],
    ]);
    expect(JSON.stringify(docs)).not.toMatch(/[1-4]0000000[01]46|1234567890/);
    expect(docs[0]!.updated_at).toEqual(at);
  });

  it('is recorded once finished: the next start does nothing, unless the deployment names another field', async () => {
    expect(await hashSensitiveCustomerFields(mongo.db, { config, hasher: protector, logger })).toBe('done before');
    await mongo.db.collection<Document & { _id: string }>('customers').insertOne(customer('6', {}, { passport: 'U1234567' }));
    const again = await hashSensitiveCustomerFields(mongo.db, {
      config: { sensitiveAttributes: ['vkn', 'passport'] },
      hasher: protector,
      logger,
    });
    expect(again).toEqual({ scanned: 6, rewritten: 1 });
    expect((await mongo.db.collection<Document & { _id: string }>('customers').findOne({ _id: '6' }))?.attributes).toEqual({
      passport: hash('U1234567', 'passport'),
    });
  });
});
