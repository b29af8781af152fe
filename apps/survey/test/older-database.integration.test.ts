import { connectMongo, ensureIndexes, type IndexSpec, type MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retiredSurveyIndexes, surveyIndexes } from '../src/adapters/mongo/indexes.js';
import { MongoCustomerRepository } from '../src/adapters/mongo/customer.repository.js';
import { MongoResponseRepository } from '../src/adapters/mongo/response.repository.js';
import { logger, stack, uniq } from './stack.js';

/**
 * A survey database as an earlier version left it, read by today's version
 * (docs/decisions.md "Compatible contracts and documents"): the identifier indexes and the
 * outbox index with the `$exists` partial filters they had before they were replaced (under
 * other names, so start-up drops the old ones: retiredSurveyIndexes), customers and a response
 * whose survey.answered is still pending, inserted raw as that version wrote them.
 */
describe("a survey database of an earlier version, after today's start-up", () => {
  let mongo: MongoHandle;
  const account = uniq('acc');
  const at = new Date('2026-11-23T12:00:00Z');

  /** The indexes as the earlier version created them (its indexes.ts). */
  const earlierIndexes: IndexSpec = {
    customers: [
      {
        key: { account_id: 1, external_id: 1 },
        name: 'account_external_id',
        unique: true,
        partialFilterExpression: { external_id: { $exists: true } },
      },
      {
        key: { account_id: 1, email_lower: 1 },
        name: 'account_email',
        unique: true,
        partialFilterExpression: { email_lower: { $exists: true } },
      },
      { key: { account_id: 1, phone: 1 }, name: 'account_phone', unique: true, partialFilterExpression: { phone: { $exists: true } } },
    ],
    responses: [
      { key: { link_id: 1, activation: 1 }, name: 'link_activation', unique: true },
      { key: { event_pending_since: 1 }, name: 'event_pending', partialFilterExpression: { event_pending_since: { $exists: true } } },
    ],
  };

  const customerDoc = (id: string, ids: { external_id?: string; email?: string; phone?: string }) => ({
    _id: id,
    account_id: account,
    ...ids,
    ...(ids.email ? { email_lower: ids.email.toLowerCase() } : {}),
    name: `name ${id}`,
    schema: { tier: 'string' },
    attributes: { tier: 'gold' },
    created_at: at,
    updated_at: at,
  });

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName: uniq('survey_test_older').replaceAll('-', '_'), logger });
    for (const [name, indexes] of Object.entries(earlierIndexes)) await mongo.db.collection(name).createIndexes(indexes);
    await mongo.db
      .collection<{ _id: string; [field: string]: unknown }>('customers')
      .insertMany([
        customerDoc('c1', { external_id: 'crm-1', email: 'Ada@Example.com', phone: '905321111111' }),
        customerDoc('c2', { phone: '905322222222' }),
        customerDoc('c3', { email: 'grace@example.com' }),
      ]);
    await mongo.db.collection<{ _id: string; [field: string]: unknown }>('responses').insertOne({
      _id: 'r1',
      account_id: account,
      flow_id: 'f1',
      channel_id: 'ch1',
      node_id: 'n1',
      customer_id: 'c1',
      link_id: 'l1',
      activation: 1,
      answers: [{ question_key: 'nps', option_keys: [], number: 9 }],
      built_in_responses: {},
      answered_at: at,
      sort_key: `${at.toISOString()}|r1`,
      event_pending_since: at,
    });
    // Today's start-up, by three replicas at once.
    await Promise.all([1, 2, 3].map(() => ensureIndexes(mongo.db, surveyIndexes, retiredSurveyIndexes)));
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  const indexNames = async (collection: string) => (await mongo.db.collection(collection).indexes()).map((i) => i.name).sort();

  it("has exactly today's indexes: the earlier ones dropped, their replacements made", async () => {
    expect(await indexNames('customers')).toEqual(['_id_', 'account_email_str', 'account_external_id_str', 'account_phone_str']);
    expect(await indexNames('responses')).toEqual([
      '_id_',
      'account_channel_newest',
      'account_customer_newest',
      'account_flow_newest',
      'account_newest',
      'account_sharing_newest',
      'event_pending_since',
      'link_activation',
      'sort_key',
    ]);
  });

  it('finds the earlier customers by each identifier, and the unique rules still hold for them', async () => {
    const customers = new MongoCustomerRepository(mongo.db);
    expect(await customers.findBy(account, 'externalId', 'crm-1')).toEqual({
      id: 'c1',
      accountId: account,
      externalId: 'crm-1',
      email: 'Ada@Example.com',
      phone: '905321111111',
      name: 'name c1',
      schema: { tier: 'string' },
      attributes: { tier: 'gold' },
      createdAt: at,
      updatedAt: at,
    });
    expect((await customers.findBy(account, 'email', 'ada@example.com'))?.id).toBe('c1');
    expect((await customers.findBy(account, 'phone', '905322222222'))?.id).toBe('c2');
    expect((await customers.findBy(account, 'email', 'grace@example.com'))?.id).toBe('c3');
    const now = new Date();
    const newcomer = { accountId: account, schema: {}, attributes: {}, createdAt: now, updatedAt: now };
    expect(await customers.insert({ ...newcomer, id: 'c4', email: 'ADA@example.com' })).toBe('duplicate');
    expect(await customers.insert({ ...newcomer, id: 'c5', phone: '905322222222' })).toBe('duplicate');
    expect(await customers.insert({ ...newcomer, id: 'c6', externalId: 'crm-1' })).toBe('duplicate');
    expect(await customers.insert({ ...newcomer, id: 'c7', phone: '905323333333' })).toBe('created');
  });

  it('still publishes the survey.answered the earlier version left pending', async () => {
    const responses = new MongoResponseRepository(mongo.db);
    expect(await responses.outboxBacklog()).toEqual({ pending: 1, oldest: at });
    const pending = await responses.unpublished(new Date(), 10);
    expect(pending.map((r) => [r.id, r.answers])).toEqual([['r1', [{ questionKey: 'nps', optionKeys: [], number: 9 }]]]);
    // Stored before responses kept their send context: it stays absent (null in the API).
    expect(pending[0]).not.toHaveProperty('context');
    await responses.markPublished('r1');
    expect(await responses.outboxBacklog()).toEqual({ pending: 0, oldest: null });
  });
});
