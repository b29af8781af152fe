import { PersonalDataProtector } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Customer } from '../src/domain/customer.js';
import {
  NO_COUNTS,
  type DataErasure,
  type ErasureCounts,
  type ErasureDeps,
  type ErasureRepository,
  type ErasureRequest,
  type SurveyPersonalData,
} from '../src/domain/data-erasure.js';
import { eraseSurveyData, getDataErasure, recordErasureProgress, requestDataErasure } from '../src/domain/data-erasure.use-cases.js';
import type { SurveyLink } from '../src/domain/link.js';
import type { SurveyResponse } from '../src/domain/response.js';
import { MemoryChannels, MemoryCustomers, MemoryLinks, MemoryResponses, uuid } from './fakes/memory-deps.js';

class MemoryErasures implements ErasureRepository {
  readonly items = new Map<string, DataErasure>();
  async insert(e: DataErasure) {
    this.items.set(e.id, structuredClone(e));
  }
  async findById(accountId: string, id: string) {
    const e = this.items.get(id);
    return e && e.accountId === accountId ? structuredClone(e) : null;
  }
  async recordProgress(id: string, service: string, counts: ErasureCounts) {
    const e = this.items.get(id);
    if (!e) return null;
    if (!Object.hasOwn(e.progress, service)) e.progress[service] = counts;
    return structuredClone(e);
  }
  async markCompleted(id: string, at: Date) {
    const e = this.items.get(id);
    if (e?.status === 'pending') Object.assign(e, { status: 'completed', completedAt: at });
  }
  async markPublished(id: string) {
    delete this.items.get(id)?.unpublished;
  }
}

/** The deletes of the Mongo adapter, over the memory repositories' arrays. */
class MemoryPersonalData implements SurveyPersonalData {
  constructor(private readonly m: { customers: MemoryCustomers; links: MemoryLinks; responses: MemoryResponses }) {}
  async linksOfCustomers(accountId: string, ids: string[]) {
    return this.m.links.items.filter((l) => l.accountId === accountId && ids.includes(l.customerId)).map((l) => ({ ...l }));
  }
  private drop<T extends { accountId: string }>(items: T[], hit: (x: T) => boolean) {
    const before = items.length;
    for (let i = items.length - 1; i >= 0; i--) if (hit(items[i]!)) items.splice(i, 1);
    return before - items.length;
  }
  async deleteResponsesOf(accountId: string, customerIds: string[], linkIds: string[]) {
    return this.drop(
      this.m.responses.items,
      (r) => r.accountId === accountId && (customerIds.includes(r.customerId) || linkIds.includes(r.linkId)),
    );
  }
  async deleteLinks(accountId: string, ids: string[]) {
    return this.drop(this.m.links.items, (l) => l.accountId === accountId && ids.includes(l.id));
  }
  async deleteCustomers(accountId: string, ids: string[]) {
    return this.drop(this.m.customers.items, (c) => c.accountId === accountId && ids.includes(c.id));
  }
}

const ACCOUNT = 'acc-1';
const protector = new PersonalDataProtector(Buffer.alloc(32, 3));

function setup() {
  const customers = new MemoryCustomers();
  const links = new MemoryLinks();
  const responses = new MemoryResponses();
  const channels = new MemoryChannels();
  const erasures = new MemoryErasures();
  const published: ErasureRequest[] = [];
  const reports: { service: string; counts: ErasureCounts }[] = [];
  const events = {
    failing: false,
    async requested(r: ErasureRequest) {
      if (events.failing) throw new Error('kafka down');
      published.push(r);
    },
    async progress(p: { service: string; counts: ErasureCounts }) {
      reports.push(p);
    },
  };
  const clock = { at: new Date('2026-11-28T05:00:00.000Z'), now: () => new Date(clock.at) };
  const deps: ErasureDeps = {
    erasures,
    personalData: new MemoryPersonalData({ customers, links, responses }),
    customers,
    channels,
    links,
    events,
    hash: (v, p) => protector.hash(v, p),
    clock,
    newId: uuid,
    logger: createLogger('erasure-test', 'silent'),
    config: { publicBaseUrl: 'https://feedback.example.com/', defaultPhoneRegion: 'TR', expectedServices: ['survey', 'messaging'] },
  };
  return { deps, customers, links, responses, channels, erasures, published, events, clock };
}

const customer = (c: Partial<Customer>): Customer => ({
  id: uuid(),
  accountId: ACCOUNT,
  schema: {},
  attributes: {},
  createdAt: new Date(),
  updatedAt: new Date(),
  ...c,
});

const link = (c: Customer, more: Partial<SurveyLink> = {}): SurveyLink =>
  ({
    id: uuid(),
    accountId: c.accountId,
    channelId: 'ch-1',
    customerId: c.id,
    token: `tok-${uuid()}`,
    builtInResponses: {},
    ...more,
  }) as SurveyLink;

const response = (l: SurveyLink): SurveyResponse & { pending: boolean } =>
  ({
    id: uuid(),
    accountId: l.accountId,
    customerId: l.customerId,
    linkId: l.id,
    answers: [],
    pending: false,
  }) as unknown as SurveyResponse & {
    pending: boolean;
  };

describe('data erasure (survey)', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => {
    s = setup();
  });

  it('resolves every customer matching a key, publishes their identifiers and links, stores only hashes', async () => {
    const byPhone = customer({ phone: '905321112233', email: 'Ayse@Example.com' });
    const byExternal = customer({ externalId: 'crm-7', email: 'other@example.com' });
    const stranger = customer({ phone: '905320000000' });
    const foreign = customer({ accountId: 'acc-2', phone: '905321112233' });
    s.customers.items.push(byPhone, byExternal, stranger, foreign);
    const l1 = link(byPhone);
    s.links.items.push(l1, link(stranger), link(foreign));

    const e = await requestDataErasure(s.deps, { accountId: ACCOUNT, phoneNumber: '0532 111 22 33', email: '', externalId: 'crm-7' });

    expect(e.status).toBe('pending');
    expect(s.published).toHaveLength(1);
    const r = s.published[0]!;
    expect(r.erasureId).toBe(e.id);
    expect(new Set(r.customerIds)).toEqual(new Set([byPhone.id, byExternal.id]));
    expect(r.phones).toEqual(['905321112233']);
    expect(new Set(r.emails)).toEqual(new Set(['ayse@example.com', 'other@example.com']));
    expect(r.externalIds).toEqual(['crm-7']);
    expect(r.surveyLinkIds).toEqual([l1.id]);
    expect(r.surveyLinkUrls).toEqual([`https://feedback.example.com/s/${l1.token}`]);
    const stored = s.erasures.items.get(e.id)!;
    expect(stored.subjectHashes).toEqual([protector.hash('905321112233', 'phone'), protector.hash('crm-7', 'external_id')]);
    expect(JSON.stringify({ ...stored, unpublished: undefined })).not.toContain('905321112233');
    expect(stored.unpublished).toBeUndefined();
  });

  it('names the field of a bad body: none given, or a malformed one', async () => {
    await expect(requestDataErasure(s.deps, { accountId: ACCOUNT, phoneNumber: '', email: '', externalId: '' })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { phone_number: expect.any(String), email: expect.any(String), external_id: expect.any(String) },
    });
    await expect(
      requestDataErasure(s.deps, { accountId: ACCOUNT, phoneNumber: '', email: 'not-an-email', externalId: '' }),
    ).rejects.toMatchObject({ kind: 'invalid', fields: { email: expect.any(String) } });
  });

  it('a request whose publish failed is published again by the next read', async () => {
    s.events.failing = true;
    await expect(
      requestDataErasure(s.deps, { accountId: ACCOUNT, phoneNumber: '+905321112233', email: '', externalId: '' }),
    ).rejects.toMatchObject({
      kind: 'unavailable',
    });
    const [id] = [...s.erasures.items.keys()];
    expect(s.erasures.items.get(id!)!.unpublished).toBeDefined();
    s.events.failing = false;
    await getDataErasure(s.deps, ACCOUNT, id!);
    expect(s.published.map((r) => r.erasureId)).toEqual([id]);
    expect(s.erasures.items.get(id!)!.unpublished).toBeUndefined();
  });

  it('another account and unknown or malformed ids answer not found naming data_erasure_id', async () => {
    const e = await requestDataErasure(s.deps, { accountId: ACCOUNT, phoneNumber: '+905321112233', email: '', externalId: '' });
    for (const [account, id] of [
      ['acc-2', e.id],
      [ACCOUNT, uuid()],
      [ACCOUNT, 'nope'],
    ] as const)
      await expect(getDataErasure(s.deps, account, id)).rejects.toMatchObject({ kind: 'not_found', fields: { data_erasure_id: id } });
  });

  it('completes only once every expected service reported; a repeated report keeps the first counts', async () => {
    const e = await requestDataErasure(s.deps, { accountId: ACCOUNT, phoneNumber: '+905321112233', email: '', externalId: '' });
    await recordErasureProgress(s.deps, { erasureId: e.id, service: 'survey', counts: { ...NO_COUNTS, customers: 1, responses: 2 } });
    // A service not on the list (and a missing one) leaves it pending.
    await recordErasureProgress(s.deps, { erasureId: e.id, service: 'shortener', counts: { ...NO_COUNTS, links: 1 } });
    expect((await getDataErasure(s.deps, ACCOUNT, e.id)).status).toBe('pending');

    await recordErasureProgress(s.deps, { erasureId: e.id, service: 'messaging', counts: { ...NO_COUNTS, messages: 3, optOutsKept: 1 } });
    // Redelivered: the second run found nothing and reports zero.
    await recordErasureProgress(s.deps, { erasureId: e.id, service: 'messaging', counts: NO_COUNTS });
    const done = await getDataErasure(s.deps, ACCOUNT, e.id);
    expect(done.status).toBe('completed');
    expect(done.completedAt).toEqual(s.clock.now());
    expect(done.progress.messaging).toEqual({ ...NO_COUNTS, messages: 3, optOutsKept: 1 });
  });

  it('erases customers, links and responses of the person only, and counts zero when run again', async () => {
    const person = customer({ phone: '905321112233', externalId: 'crm-7' });
    const later = customer({ email: 'ayse@example.com' });
    const other = customer({ phone: '905320000000' });
    s.customers.items.push(person, later, other);
    const [l1, l2, l3] = [link(person), link(later), link(other)];
    // A link texted to the person's phone though resolved to another customer (by external id).
    const texted = link(other, { channelId: 'ch-2', phone: '905321112233' });
    s.channels.items.push({ id: 'ch-2', accountId: ACCOUNT } as never);
    s.links.items.push(l1, l2, l3, texted);
    s.responses.items.push(response(l1), response(l1), response(l3), response(texted));
    const request: ErasureRequest = {
      erasureId: uuid(),
      accountId: ACCOUNT,
      phones: ['905321112233'],
      emails: ['ayse@example.com'],
      externalIds: [],
      customerIds: [person.id],
      surveyLinkIds: [l1.id],
      surveyLinkUrls: [],
      requestedAt: new Date(),
    };

    expect(await eraseSurveyData(s.deps, request)).toEqual({ customers: 2, responses: 3 });
    expect(s.customers.items.map((c) => c.id)).toEqual([other.id]);
    expect(s.links.items.map((l) => l.id)).toEqual([l3.id]);
    expect(s.responses.items.map((r) => r.linkId)).toEqual([l3.id]);
    expect(await eraseSurveyData(s.deps, request)).toEqual({ customers: 0, responses: 0 });
  });
});
