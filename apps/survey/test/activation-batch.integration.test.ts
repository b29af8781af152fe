import type { ActivateSurveyLinkRequest } from '@feedback/proto/feedback/survey/v1/survey';
import { BSON, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoCustomerRepository } from '../src/adapters/mongo/customer.repository.js';
import { MongoLinkRepository } from '../src/adapters/mongo/link.repository.js';
import type { Customer } from '../src/domain/customer.js';
import type { SurveyLink } from '../src/domain/link.js';
import type { LinkActivation } from '../src/domain/ports.js';
import { customerInput, planStages, smsChannel, startSurveyService, uniq, type TestSurveyService } from './stack.js';

// The batch forms of the Mongo adapters on the stack's MongoDB-compatible server, and the batch
// RPC racing single activations of the same people.
describe('batch activation storage', () => {
  let svc: TestSurveyService;
  let customers: MongoCustomerRepository;
  let links: MongoLinkRepository;
  const account = uniq('acc');
  let channelId: string;

  beforeAll(async () => {
    svc = await startSurveyService();
    customers = new MongoCustomerRepository(svc.mongo.db);
    links = new MongoLinkRepository(svc.mongo.db);
    channelId = await smsChannel(svc, account);
  });
  afterAll(() => svc?.close());

  const now = new Date('2026-11-20T08:00:00.000Z');
  const customer = (c: Partial<Customer>): Customer => ({
    id: uniq('c'),
    accountId: account,
    schema: {},
    attributes: {},
    createdAt: now,
    updatedAt: now,
    ...c,
  });
  const activation = (customerId: string, more: Partial<LinkActivation> = {}): LinkActivation => ({
    accountId: account,
    channelId,
    customerId,
    nodeId: 'n1',
    flowId: 'f',
    nodeName: 'Unit',
    flowName: 'F',
    channelName: 'SMS',
    activatedAt: now,
    expiresAt: now,
    builtInResponses: {},
    newId: uniq('link'),
    newToken: uniq('tok'),
    ...more,
  });

  it('inserts many customers in one call, answering duplicate for each identifier someone holds', async () => {
    await customers.insert(customer({ phone: '905330000001' }));
    const batch = [
      customer({ phone: '905330000002', email: 'New@Example.com', name: 'New' }),
      customer({ phone: '905330000001' }),
      customer({ externalId: 'crm-9' }),
      customer({ email: 'NEW@example.com' }),
    ];
    expect(await customers.insertMany(batch)).toEqual(['created', 'duplicate', 'created', 'duplicate']);
    expect(await customers.findById(account, batch[0]!.id)).toEqual(batch[0]);
    expect(await customers.findById(account, batch[1]!.id)).toBeNull();
    expect(await customers.insertMany([])).toEqual([]);
  });

  it('activates many links in one call: new ones at activation 1, existing ones + 1 with their id and token', async () => {
    const existing = await links.activate(activation('cust-1'));
    const answers = await links.activateMany([
      activation('cust-2', { builtInResponses: { k: 'v' } }),
      activation('cust-1'),
      activation('cust-3'),
    ]);
    expect(answers.map((l) => [l?.customerId, l?.activation])).toEqual([
      ['cust-2', 1],
      ['cust-1', 2],
      ['cust-3', 1],
    ]);
    expect(answers[0]).toMatchObject({ builtInResponses: { k: 'v' }, answeredAt: null, channelId });
    expect(answers[1]).toMatchObject({ id: existing.id, token: existing.token });
    expect(
      await svc.mongo.db.collection('links').countDocuments({ account_id: account, customer_id: { $in: ['cust-1', 'cust-2', 'cust-3'] } }),
    ).toBe(3);
    await expect(links.activateMany([activation('cust-4'), activation('cust-4')])).rejects.toThrow(/at most once/);
    expect(await svc.mongo.db.collection('links').countDocuments({ account_id: account, customer_id: 'cust-4' })).toBe(0);

    const plan = await svc.mongo.db
      .collection('links')
      .find({ account_id: account, channel_id: channelId, customer_id: { $in: ['cust-1', 'cust-2'] } })
      .explain('queryPlanner');
    expect(planStages(plan.queryPlanner.winningPlan)).toContain('IXSCAN');
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('account_channel_customer');
  });

  it('inserts new links as the very documents the upsert of a first activation creates', async () => {
    const more = {
      builtInResponses: { order: '7', channel: 'sms' },
      expiresAt: new Date(now.getTime() + 3 * 86_400_000),
      context: { campaignId: 'camp', sharingId: 'sh', messageId: 'sh.905321234567', customAttributes: { store: 'Moda', order_id: '7' } },
    };
    const upserted = await links.activate(activation('shape-upsert', more));
    const [inserted] = await links.insertNew([activation('shape-insert', more)]);
    // As stored, numbers keeping their BSON type (an int32 1, not a double), fields in stored order;
    // the ids, token and customer put to one value, everything else (dates included) compared as is.
    const stored = async (id: string): Promise<Document> => {
      const doc = await svc.mongo.db.collection('links').findOne({ _id: id as never }, { promoteValues: false });
      return { ...doc, _id: 'id', token: 'token', customer_id: 'customer' };
    };
    const [a, b] = [await stored(upserted.id), await stored(inserted!.id)];
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(b).toEqual(a);
    expect(BSON.serialize(b)).toEqual(BSON.serialize(a));
    expect(a.activation).toBeInstanceOf(BSON.Int32);
    expect({ ...inserted, id: upserted.id, token: upserted.token, customerId: upserted.customerId }).toEqual(upserted);
  });

  it('inserts new links in one call, answering null for a link that exists and leaving that one as it was', async () => {
    const existing = await links.activate(activation('ins-dup'));
    const batch = [activation('ins-1', { builtInResponses: { k: 'v' } }), activation('ins-dup'), activation('ins-2')];
    const answers = await links.insertNew(batch);
    expect(answers.map((l) => l && [l.customerId, l.id, l.token, l.activation])).toEqual([
      ['ins-1', batch[0]!.newId, batch[0]!.newToken, 1],
      null,
      ['ins-2', batch[2]!.newId, batch[2]!.newToken, 1],
    ]);
    expect(await links.findByToken(batch[0]!.newToken)).toEqual(answers[0]);
    expect(await links.findByToken(existing.token)).toEqual(existing);
    expect(await links.findByToken(batch[1]!.newToken)).toBeNull();
    // Activated alone afterwards, as the use case does: a second activation of the same link.
    expect(await links.activate(batch[1]!)).toMatchObject({ id: existing.id, token: existing.token, activation: 2 });
    expect(await links.insertNew([])).toEqual([]);
  });

  /** Each (channel, customer) of the batch stored once, at activation 2, and answered with that link. */
  async function expectEachLinkOnceActivatedTwice(batch: LinkActivation[], final: (SurveyLink | null)[]) {
    for (const [i, a] of batch.entries()) {
      const stored = await svc.mongo.db
        .collection('links')
        .find({ account_id: account, channel_id: channelId, customer_id: a.customerId })
        .toArray();
      expect(stored, a.customerId).toHaveLength(1);
      expect(stored[0]?.activation, a.customerId).toBe(2);
      expect(final[i]?.id).toBe(stored[0]?._id);
    }
  }

  it('first activations racing insertNew: each link once, every activation counted once', async () => {
    for (let round = 0; round < 3; round++) {
      const batch = Array.from({ length: 40 }, (_, i) => activation(`ins-race-${round}-${i}`));
      const single = (a: LinkActivation) => links.activate({ ...a, newId: uniq('l'), newToken: uniq('t') });
      // The insert sent amid the single activations: links whose single activation came first are
      // refused (activated alone), the others are inserted and then activated by the single call.
      const cut = [5, 15, 30][round]!;
      const before = batch.slice(0, cut).map(single);
      const insert = links.insertNew(batch);
      const after = batch.slice(cut).map(single);
      const [answers] = await Promise.all([insert, ...before, ...after]);
      const final = await Promise.all(answers.map((l, i) => l ?? links.activate(batch[i]!)));
      await expectEachLinkOnceActivatedTwice(batch, final);
    }
  });

  it('first activations racing activateMany: each link once, every activation counted once', async () => {
    for (let round = 0; round < 3; round++) {
      const batch = Array.from({ length: 50 }, (_, i) => activation(`race-${round}-${i}`));
      const [answers] = await Promise.all([
        links.activateMany(batch),
        ...batch.map((a) => links.activate({ ...a, newId: uniq('l'), newToken: uniq('t') })),
      ]);
      // A refused write was not applied: the use case activates it alone.
      const final = await Promise.all(answers.map((l, i) => l ?? links.activate(batch[i]!)));
      await expectEachLinkOnceActivatedTwice(batch, final);
    }
  });

  it('a batch racing single activations of the same phones ends with one customer per phone and one link each', async () => {
    for (let round = 0; round < 3; round++) {
      const phones = Array.from({ length: 40 }, (_, i) => `0534 ${round}${String(i).padStart(2, '0')} 00 00`);
      const item = (phoneNumber: string): ActivateSurveyLinkRequest => ({
        accountId: account,
        channelId,
        customer: customerInput({ phoneNumber }),
        customAttributes: {},
        builtInResponses: {},
      });
      // Single calls first, the batch while they are under way: some phones are taken by a single
      // call before the batch's insert (refused, resolved alone), others by the batch first.
      const singleCalls = phones.flatMap((p) => [svc.client.activateSurveyLink(item(p)), svc.client.activateSurveyLink(item(p))]);
      await new Promise((r) => setTimeout(r, [5, 20, 60][round]));
      const [batch, ...singles] = await Promise.all([
        svc.client.activateSurveyLinks({ accountId: account, items: phones.map(item) }),
        ...singleCalls,
      ]);
      expect(batch.results.filter((r) => r.errorCode)).toEqual([]);
      const ids = await Promise.all(
        phones.map(async (p, i) => {
          const normalized = `90534${round}${String(i).padStart(2, '0')}0000`;
          const stored = await svc.mongo.db.collection('customers').find({ account_id: account, phone: normalized }).toArray();
          expect(stored, p).toHaveLength(1);
          const customerId = stored[0]!._id as unknown as string;
          expect(batch.results[i]?.customerId).toBe(customerId);
          expect(singles[2 * i]?.customerId).toBe(customerId);
          expect(singles[2 * i + 1]?.customerId).toBe(customerId);
          const stored_links = await svc.mongo.db
            .collection('links')
            .find({ account_id: account, channel_id: channelId, customer_id: customerId })
            .toArray();
          expect(stored_links, p).toHaveLength(1);
          // Three activations of the phone, none lost or applied twice.
          expect(stored_links[0]?.activation, p).toBe(3);
          expect(batch.results[i]?.linkId).toBe(stored_links[0]?._id);
          return customerId;
        }),
      );
      expect(new Set(ids).size).toBe(phones.length);
    }
  });
});
