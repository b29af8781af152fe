import { AppError } from '@feedback/kit-core';
import { describe, expect, it, vi } from 'vitest';
import { activateSurveyLinks, type ActivationOutcome } from '../src/domain/activation-batch.use-cases.js';
import { activateSurveyLink, type ActivationRequest } from '../src/domain/activation.use-cases.js';
import type { Channel } from '../src/domain/channel.js';
import type { Customer } from '../src/domain/customer.js';
import { memoryDeps, sampleFlow, uuid, type MemoryDeps } from './fakes/memory-deps.js';

const ACCOUNT = 'acc';
const at = new Date('2026-11-20T08:00:00.000Z');
const channel = (name: string): Channel => ({
  id: uuid(),
  accountId: ACCOUNT,
  name,
  nodeId: 'node-1',
  nodeName: 'Kadikoy',
  flowId: sampleFlow(ACCOUNT).id,
  flowName: 'Checkout survey',
  linkTtlDays: 3,
  kind: 'sms',
  createdAt: at,
});
const sms = channel('SMS');
const web = channel('Web');
const known: Customer = {
  id: 'known-customer',
  accountId: ACCOUNT,
  email: 'Known@Example.com',
  phone: '905320000001',
  name: 'Known',
  schema: {},
  attributes: { city: 'Izmir' },
  createdAt: at,
  updatedAt: at,
};

/** The same stored state in a fresh set of fakes: channels, one known customer with a link. */
async function world(): Promise<MemoryDeps> {
  const d = memoryDeps();
  d.channels.items.push(sms, web);
  d.customers.items.push(structuredClone(known));
  await d.links.activate({
    accountId: ACCOUNT,
    channelId: sms.id,
    customerId: known.id,
    nodeId: 'node-1',
    flowId: sms.flowId,
    nodeName: 'Kadikoy',
    flowName: 'Checkout survey',
    channelName: 'SMS',
    activatedAt: at,
    expiresAt: at,
    builtInResponses: {},
    newId: 'known-link',
    newToken: 'known-token',
  });
  return d;
}

const item = (customer: Partial<ActivationRequest['customer']>, more: Partial<ActivationRequest> = {}): ActivationRequest => ({
  accountId: ACCOUNT,
  channelId: sms.id,
  customer: { phoneNumber: '', email: '', externalId: '', name: '', schema: {}, ...customer },
  customAttributes: {},
  builtInResponses: {},
  ...more,
});

/** What each item would give as a call of its own, in batch order. */
async function oneByOne(d: MemoryDeps, items: ActivationRequest[]): Promise<ActivationOutcome[]> {
  const outcomes: ActivationOutcome[] = [];
  for (const req of items) {
    try {
      outcomes.push({ ok: await activateSurveyLink(d, req) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      outcomes.push({ error: err });
    }
  }
  return outcomes;
}

/**
 * Outcomes and stored state with generated ids and tokens replaced by labels in order of first
 * appearance, so two runs that drew their ids in another order compare equal.
 */
function canonical(outcomes: ActivationOutcome[], d: MemoryDeps) {
  const labels = new Map<string, string>();
  const label = (v: string) => labels.get(v) ?? (labels.set(v, `#${labels.size}`), `#${labels.size - 1}`);
  const customer = (c: Customer) => ({ ...c, id: label(c.id) });
  const link = (l: MemoryDeps['links']['items'][number]) => ({
    ...l,
    id: label(l.id),
    token: label(l.token),
    customerId: label(l.customerId),
  });
  const answers = outcomes.map((o) =>
    'error' in o
      ? { error: { kind: o.error.kind, message: o.error.message, fields: o.error.fields } }
      : {
          created: o.ok.created,
          customer: customer(o.ok.customer),
          link: link(o.ok.link),
          url: o.ok.url.replace(o.ok.link.token, label(o.ok.link.token)),
        },
  );
  const sorted = <T>(xs: T[]) => xs.map((x) => JSON.stringify(x)).sort();
  return { answers, customers: sorted(d.customers.items.map(customer)), links: sorted(d.links.items.map(link)) };
}

describe('activateSurveyLinks', () => {
  const mixed = [
    item({ phoneNumber: '0532 111 11 11', name: 'Ada' }, { customAttributes: { plan: 'gold' }, builtInResponses: { order: '1' } }),
    item({ phoneNumber: '0532 000 00 01', name: 'Known Again' }),
    item({ phoneNumber: '123' }),
    item({ phoneNumber: '0532 222 22 22' }, { channelId: uuid() }),
    item({ phoneNumber: '0532 333 33 33' }),
    item({ phoneNumber: '+90 532 111 11 11', name: 'Ada Lovelace' }, { builtInResponses: { order: '2' } }),
    item({ email: 'KNOWN@example.com' }, { customAttributes: { city: 'Bursa' } }),
    item({ phoneNumber: '0532 111 11 11' }, { channelId: web.id }),
    item({}),
    item({ phoneNumber: '0532 444 44 44', email: 'new@example.com' }, { channelId: web.id }),
  ];

  it('answers every item of a mixed batch exactly as a call of its own would, and stores the same', async () => {
    const alone = await world();
    const batched = await world();
    const expected = await oneByOne(alone, mixed);
    const outcomes = await activateSurveyLinks(batched, ACCOUNT, mixed);
    expect(canonical(outcomes, batched)).toEqual(canonical(expected, alone));

    const ok = (i: number) => (outcomes[i] as { ok: NonNullable<Extract<ActivationOutcome, { ok: unknown }>['ok']> }).ok;
    const error = (i: number) => (outcomes[i] as { error: AppError }).error;
    // The new phone twice: one customer, created by the first, its link activated twice.
    expect(ok(0)).toMatchObject({ created: true, customer: { phone: '905321111111', name: 'Ada' }, link: { activation: 1 } });
    expect(ok(5)).toMatchObject({ created: false, customer: { id: ok(0).customer.id, name: 'Ada Lovelace' } });
    expect(ok(5).link).toMatchObject({ id: ok(0).link.id, activation: 2, builtInResponses: { order: '2' } });
    // The known customer by phone and by e-mail: reused, updated in order, its link + 1 each time.
    expect(ok(1)).toMatchObject({
      created: false,
      customer: { id: known.id, name: 'Known Again' },
      link: { id: 'known-link', activation: 2 },
    });
    expect(ok(6)).toMatchObject({ created: false, customer: { id: known.id, attributes: { city: 'Bursa' } }, link: { activation: 3 } });
    // Another channel: the same customer, its own link.
    expect(ok(7)).toMatchObject({ customer: { id: ok(0).customer.id }, link: { channelId: web.id, activation: 1 } });
    expect(ok(7).link.id).not.toBe(ok(0).link.id);
    expect(error(2)).toMatchObject({ kind: 'invalid', fields: { 'customer.phone_number': expect.any(String) } });
    expect(error(3)).toMatchObject({ kind: 'not_found', fields: { channel_id: mixed[3]!.channelId } });
    expect(Object.keys(error(8).fields).sort()).toEqual(['customer.email', 'customer.external_id', 'customer.phone_number']);
    expect(batched.customers.items.map((c) => c.phone).sort()).toEqual(['905320000001', '905321111111', '905323333333', '905324444444']);
  });

  it('takes a few round trips for a batch of new people: one channel read, one insert, one link insert', async () => {
    const d = await world();
    const calls = {
      findBy: vi.spyOn(d.customers, 'findBy'),
      insert: vi.spyOn(d.customers, 'insert'),
      insertMany: vi.spyOn(d.customers, 'insertMany'),
      update: vi.spyOn(d.customers, 'update'),
      activate: vi.spyOn(d.links, 'activate'),
      activateMany: vi.spyOn(d.links, 'activateMany'),
      insertNew: vi.spyOn(d.links, 'insertNew'),
      channel: vi.spyOn(d.channels, 'findById'),
    };
    const items = Array.from({ length: 200 }, (_, i) => item({ phoneNumber: `0532 5${String(i).padStart(6, '0')}` }));
    items.push(item({ email: 'mail@example.com' }, { channelId: web.id }));
    calls.activate.mockClear(); // world() seeded a link
    const outcomes = await activateSurveyLinks(d, ACCOUNT, items);
    expect(outcomes.every((o) => 'ok' in o && o.ok.created && o.ok.link.activation === 1)).toBe(true);
    expect(calls.insertMany).toHaveBeenCalledTimes(1);
    expect(calls.insertMany.mock.calls[0]?.[0]).toHaveLength(201);
    expect(calls.insertNew).toHaveBeenCalledTimes(1);
    expect(calls.insertNew.mock.calls[0]?.[0].map((a) => a.customerId)).toEqual(outcomes.map((o) => 'ok' in o && o.ok.customer.id));
    expect(calls.channel).toHaveBeenCalledTimes(2);
    for (const perItem of [calls.findBy, calls.insert, calls.update, calls.activate, calls.activateMany])
      expect(perItem).not.toHaveBeenCalled();
  });

  it('inserts the links of the customers it created and upserts the others, repeated pairs after both', async () => {
    const d = await world();
    const insertNew = vi.spyOn(d.links, 'insertNew');
    const activateMany = vi.spyOn(d.links, 'activateMany');
    const activate = vi.spyOn(d.links, 'activate');
    activate.mockClear(); // world() seeded a link
    const outcomes = await activateSurveyLinks(d, ACCOUNT, [
      item({ phoneNumber: '0532 111 11 11' }),
      item({ phoneNumber: '0532 000 00 01' }),
      item({ email: 'new@example.com' }, { channelId: web.id }),
      item({ email: 'known@example.com' }, { channelId: web.id }),
      item({ phoneNumber: '0532 111 11 11' }),
      item({ phoneNumber: '0532 111 11 11' }, { channelId: web.id }),
    ]);
    const ok = outcomes.map((o) => (o as { ok: NonNullable<Extract<ActivationOutcome, { ok: unknown }>['ok']> }).ok);
    const pair = (i: number) => `${ok[i]!.link.channelName}/${ok[i]!.customer.id}`;
    const pairs = (calls: Array<[activations: Array<{ channelName: string; customerId: string }>]>) =>
      calls.map(([activations]) => activations.map((a) => `${a.channelName}/${a.customerId}`));
    // New people (item 5: no customer created by the item itself, but by item 0 of this call).
    expect(pairs(insertNew.mock.calls)).toEqual([[pair(0), pair(2), pair(5)]]);
    expect(pairs(activateMany.mock.calls)).toEqual([[pair(1), pair(3)]]);
    expect(activate.mock.calls.map(([a]) => `${a.channelName}/${a.customerId}`)).toEqual([pair(4)]);
    expect(ok.map((o) => [o.created, o.link.activation])).toEqual([
      [true, 1],
      [false, 2],
      [true, 1],
      [false, 1],
      [false, 2],
      [false, 1],
    ]);
    expect(ok[3]!.customer.id).toBe(known.id);
    expect(ok[4]!.link.id).toBe(ok[0]!.link.id);
  });

  it('resolves an item alone when its insert is refused because a concurrent caller took the phone first', async () => {
    const d = await world();
    const rival: Customer = { ...known, id: 'rival', email: undefined, phone: '905326666666', name: 'Rival', attributes: {} };
    const insertMany = d.customers.insertMany.bind(d.customers);
    d.customers.insertMany = async (customers) => {
      await d.customers.insert(rival);
      return insertMany(customers);
    };
    const outcomes = await activateSurveyLinks(d, ACCOUNT, [
      item({ phoneNumber: '0532 555 55 55' }),
      item({ phoneNumber: '0532 666 66 66', name: 'Me' }),
    ]);
    expect(outcomes[0]).toMatchObject({ ok: { created: true } });
    expect(outcomes[1]).toMatchObject({ ok: { created: false, customer: { id: 'rival', name: 'Me' }, link: { activation: 1 } } });
    expect(d.customers.items.filter((c) => c.phone === '905326666666')).toHaveLength(1);
  });

  it('activates alone a link whose upsert lost a first-activation race, once', async () => {
    const d = await world();
    const bulk = d.links.activateMany.bind(d.links);
    // The first write refused (null): not applied, so it must be done once by activate.
    d.links.activateMany = async (activations) => [null, ...(await bulk(activations.slice(1)))];
    const activate = vi.spyOn(d.links, 'activate');
    const outcomes = await activateSurveyLinks(d, ACCOUNT, [
      item({ email: 'known@example.com' }, { channelId: web.id }),
      item({ phoneNumber: '0532 000 00 01' }),
    ]);
    expect(activate).toHaveBeenCalledTimes(1);
    expect(outcomes.map((o) => 'ok' in o && o.ok.link.activation)).toEqual([1, 2]);
    expect(d.links.items).toHaveLength(2);
  });

  it('re-activates alone the link of a new customer that a concurrent single activation created first', async () => {
    const d = await world();
    const insertNew = d.links.insertNew.bind(d.links);
    // A single call for the first customer activates its link between the customer's insert
    // and the batch's link insert: that insert is refused, the batch's activation is a second one.
    d.links.insertNew = async (activations) => {
      await d.links.activate({ ...activations[0]!, newId: 'rival-link', newToken: 'rival-token' });
      return insertNew(activations);
    };
    const activate = vi.spyOn(d.links, 'activate');
    const outcomes = await activateSurveyLinks(d, ACCOUNT, [
      item({ phoneNumber: '0532 777 77 77' }),
      item({ phoneNumber: '0532 888 88 88' }),
    ]);
    expect(activate).toHaveBeenCalledTimes(2); // the rival's, then the batch's own
    expect(outcomes.map((o) => 'ok' in o && [o.ok.created, o.ok.link.id, o.ok.link.activation])).toEqual([
      [true, 'rival-link', 2],
      [true, expect.not.stringMatching(/rival/), 1],
    ]);
    expect(d.links.items).toHaveLength(3);
  });

  it('refuses the whole batch above 1,000 items or with an item of another account; an empty one answers nothing', async () => {
    const d = await world();
    const many = Array.from({ length: 1001 }, () => item({ phoneNumber: '0532 111 11 11' }));
    await expect(activateSurveyLinks(d, ACCOUNT, many)).rejects.toMatchObject({ kind: 'invalid', fields: { items: expect.any(String) } });
    await expect(
      activateSurveyLinks(d, ACCOUNT, [item({ email: 'a@x.io' }), item({ email: 'b@x.io' }, { accountId: 'other' })]),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fields: { 'items[1].account_id': expect.any(String) },
    });
    expect(await activateSurveyLinks(d, ACCOUNT, [])).toEqual([]);
    expect(d.customers.items).toHaveLength(1);
  });
});
