import type { CustomerInput } from '@feedback/proto/feedback/survey/v1/survey';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_INDEX } from '../src/adapters/mongo/indexes.js';
import { customerInput, planStages, smsChannel, startSurveyService, uniq, type TestSurveyService } from './stack.js';

// The Mongo adapters on the stack's MongoDB-compatible server: unique indexes decide races.
describe('survey storage under concurrency', () => {
  let svc: TestSurveyService;
  const account = uniq('acc');
  let channelId: string;

  beforeAll(async () => {
    svc = await startSurveyService();
    channelId = await smsChannel(svc, account);
  });
  afterAll(() => svc?.close());

  const activate = (c: Partial<CustomerInput>) =>
    svc.client.activateSurveyLink({
      accountId: account,
      channelId,
      customer: customerInput(c),
      customAttributes: {},
      builtInResponses: {},
    });

  it('10 concurrent activations of one person give one customer and one link, activated 10 times', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => activate({ phoneNumber: '5337654321', email: 'Race@Example.com', name: `try ${i}` })),
    );
    expect(new Set(results.map((r) => r.customerId)).size).toBe(1);
    expect(results.filter((r) => r.customerCreated)).toHaveLength(1);
    expect(new Set(results.map((r) => r.linkToken)).size).toBe(1);
    expect(await svc.mongo.db.collection('customers').countDocuments({ account_id: account, phone: '905337654321' })).toBe(1);
    const links = await svc.mongo.db.collection('links').find({ account_id: account, customer_id: results[0]!.customerId }).toArray();
    expect(links).toHaveLength(1);
    expect(links[0]?.activation).toBe(10);
  });

  it('10 concurrent first activations by external_id alone also give one customer', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => activate({ externalId: 'crm-race' })));
    expect(new Set(results.map((r) => r.customerId)).size).toBe(1);
  });

  it('keeps any number of customers without an e-mail or external_id (partial indexes)', async () => {
    await activate({ phoneNumber: '5330000001' });
    await activate({ phoneNumber: '5330000002' });
    await activate({ email: 'only-mail@example.com' });
    expect(
      await svc.mongo.db.collection('customers').countDocuments({ account_id: account, email_lower: { $exists: false } }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('the unique indexes refuse a second customer with the same identifier', async () => {
    const customers = svc.mongo.db.collection<Document>('customers');
    const base = { account_id: account, schema: {}, attributes: {}, created_at: new Date(), updated_at: new Date() };
    await customers.insertOne({ _id: uniq('c') as never, ...base, email: 'x@y.io', email_lower: 'x@y.io' });
    await expect(customers.insertOne({ _id: uniq('c') as never, ...base, email: 'X@Y.IO', email_lower: 'x@y.io' })).rejects.toMatchObject({
      code: 11000,
    });
  });

  it('only submits once under concurrency: one response, nine already-answered', async () => {
    const a = await activate({ email: 'double@example.com' });
    const tries = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        svc.client.submitAnswers({ token: a.linkToken, answers: [{ questionKey: 'nps', optionKeys: [], number: 10 }] }),
      ),
    );
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(1);
    expect(tries.filter((t) => t.status === 'rejected' && (t.reason as { code?: number }).code === 13040)).toHaveLength(9);
    expect(await svc.mongo.db.collection('responses').countDocuments({ link_id: a.linkId })).toBe(1);
  });

  it('looks customers and links up by index, never by a collection scan, without hints', async () => {
    // The queries exactly as the repositories make them: no hint (SecantusDB walks a whole hinted
    // index), each server must pick the index by itself (adapters/mongo/indexes.ts).
    const db = svc.mongo.db;
    for (const [field, value, index] of [
      ['external_id', 'crm-race', CUSTOMER_INDEX.externalId],
      ['email_lower', 'race@example.com', CUSTOMER_INDEX.email],
      ['phone', '905337654321', CUSTOMER_INDEX.phone],
    ] as const) {
      const plan = await db
        .collection('customers')
        .find({ account_id: account, [field]: value })
        .explain('queryPlanner');
      expect(planStages(plan.queryPlanner.winningPlan), field).toContain('IXSCAN');
      expect(planStages(plan.queryPlanner.winningPlan), field).not.toContain('COLLSCAN');
      expect(JSON.stringify(plan.queryPlanner.winningPlan), field).toContain(index);
    }
    const links = await db.collection('links').find({ account_id: account, customer_id: 'c', node_id: 'n1' }).explain('queryPlanner');
    expect(planStages(links.queryPlanner.winningPlan)).toContain('IXSCAN');
    const byToken = await db.collection('links').find({ token: 'x' }).explain('queryPlanner');
    expect(planStages(byToken.queryPlanner.winningPlan)).toContain('IXSCAN');
  });
});
