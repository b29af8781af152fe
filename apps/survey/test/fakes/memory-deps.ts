import { pageOf, PersonalDataProtector, type PageQuery } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import type { Channel } from '../../src/domain/channel.js';
import { identifierOf, type Customer, type CustomerChanges, type IdentifierKind } from '../../src/domain/customer.js';
import type { Flow } from '../../src/domain/flow.js';
import type { SurveyLink } from '../../src/domain/link.js';
import type {
  ChannelRepository,
  CustomerRepository,
  FlowCatalog,
  LinkActivation,
  LinkRepository,
  ResponseFilter,
  ResponseRepository,
  SurveyDeps,
  SurveyEvents,
} from '../../src/domain/ports.js';
import type { SurveyResponse } from '../../src/domain/response.js';
import { responseSortKey } from '../../src/domain/responses.use-cases.js';

export class MemoryChannels implements ChannelRepository {
  readonly items: Channel[] = [];
  async insert(c: Channel) {
    this.items.push(c);
  }
  async findById(accountId: string, id: string) {
    return this.items.find((c) => c.accountId === accountId && c.id === id) ?? null;
  }
  async list(accountId: string) {
    return this.items.filter((c) => c.accountId === accountId).reverse();
  }
}

const KINDS: IdentifierKind[] = ['externalId', 'email', 'phone'];

/** Enforces the unique identifiers per account, as the Mongo indexes do. */
export class MemoryCustomers implements CustomerRepository {
  readonly items: Customer[] = [];
  private clash(c: Customer) {
    return this.items.some(
      (o) =>
        o.id !== c.id &&
        o.accountId === c.accountId &&
        KINDS.some((k) => identifierOf(c, k) !== undefined && identifierOf(c, k) === identifierOf(o, k)),
    );
  }
  async findBy(accountId: string, kind: IdentifierKind, value: string) {
    return structuredClone(this.items.find((c) => c.accountId === accountId && identifierOf(c, kind) === value) ?? null);
  }
  async findById(accountId: string, id: string) {
    return structuredClone(this.items.find((c) => c.accountId === accountId && c.id === id) ?? null);
  }
  async findByIds(accountId: string, ids: string[]) {
    return structuredClone(this.items.filter((c) => c.accountId === accountId && ids.includes(c.id)));
  }
  private add(c: Customer) {
    if (this.clash(c) || this.items.some((o) => o.id === c.id)) return 'duplicate' as const;
    this.items.push(structuredClone(c));
    return 'created' as const;
  }
  async insert(c: Customer) {
    return this.add(c);
  }
  /** Like the unordered insertMany: each one checked against the ones before it too. */
  async insertMany(customers: Customer[]) {
    return customers.map((c) => this.add(c));
  }
  async update(accountId: string, id: string, ch: CustomerChanges) {
    const i = this.items.findIndex((c) => c.accountId === accountId && c.id === id);
    if (i < 0) return null;
    const cur = this.items[i]!;
    const { schema, attributes, ...rest } = ch;
    const next: Customer = { ...cur, ...rest, schema: { ...cur.schema, ...schema }, attributes: { ...cur.attributes, ...attributes } };
    if (this.clash(next)) return 'duplicate' as const;
    this.items[i] = next;
    return structuredClone(next);
  }
}

export class MemoryLinks implements LinkRepository {
  readonly items: SurveyLink[] = [];
  async activate(a: LinkActivation) {
    return this.upsert(a);
  }
  private find(a: LinkActivation) {
    return this.items.find((l) => l.accountId === a.accountId && l.channelId === a.channelId && l.customerId === a.customerId);
  }
  private upsert(a: LinkActivation) {
    let link = this.find(a);
    if (!link) {
      link = {
        id: a.newId,
        token: a.newToken,
        createdAt: a.activatedAt,
        activation: 0,
        accountId: a.accountId,
        channelId: a.channelId,
        customerId: a.customerId,
      } as SurveyLink;
      this.items.push(link);
    }
    Object.assign(link, {
      nodeId: a.nodeId,
      flowId: a.flowId,
      nodeName: a.nodeName,
      flowName: a.flowName,
      channelName: a.channelName,
      activatedAt: a.activatedAt,
      answeredAt: null,
      expiresAt: a.expiresAt,
      builtInResponses: a.builtInResponses,
      activation: link.activation + 1,
      ...(a.phone !== undefined ? { phone: a.phone } : {}),
      ...(a.context ? { context: a.context } : {}),
    });
    return { ...link };
  }
  /** Refuses a (channel, customer) twice, as the Mongo adapter does. */
  async activateMany(activations: LinkActivation[]): Promise<Array<SurveyLink | null>> {
    if (new Set(activations.map((a) => `${a.accountId}/${a.channelId}/${a.customerId}`)).size < activations.length)
      throw new Error('activateMany: each (channel, customer) at most once');
    return activations.map((a) => this.upsert(a));
  }
  /** Refuses (null) a link that exists, as the unique index does, and writes nothing for it. */
  async insertNew(activations: LinkActivation[]): Promise<Array<SurveyLink | null>> {
    return activations.map((a) => (this.find(a) ? null : this.upsert(a)));
  }
  async findByToken(token: string) {
    const l = this.items.find((x) => x.token === token);
    return l ? { ...l } : null;
  }
  async findActive(q: { accountId: string; customerId: string; nodeId: string; channelId?: string; now: Date }) {
    return this.items
      .filter((l) => l.accountId === q.accountId && l.customerId === q.customerId && l.nodeId === q.nodeId)
      .filter((l) => (q.channelId ? l.channelId === q.channelId : true) && l.answeredAt === null && l.expiresAt > q.now)
      .map((l) => ({ ...l }));
  }
  async markAnswered(linkId: string, activation: number, at: Date) {
    const l = this.items.find((x) => x.id === linkId && x.activation === activation && x.answeredAt === null);
    if (l) l.answeredAt = at;
    return !!l;
  }
  async findByPhones(accountId: string, channelId: string, phones: string[]) {
    return this.items
      .filter((l) => l.accountId === accountId && l.channelId === channelId && l.phone !== undefined && phones.includes(l.phone))
      .map((l) => ({ ...l }));
  }
}

export class MemoryResponses implements ResponseRepository {
  readonly items: Array<SurveyResponse & { pending: boolean }> = [];
  async insert(r: SurveyResponse) {
    if (this.items.some((x) => x.linkId === r.linkId && x.activation === r.activation)) return 'duplicate' as const;
    this.items.push({ ...r, pending: true });
    return 'created' as const;
  }
  private selected(f: ResponseFilter) {
    return this.items.filter(
      (r) =>
        r.accountId === f.accountId &&
        (!f.flowId || r.flowId === f.flowId) &&
        (!f.channelId || r.channelId === f.channelId) &&
        (!f.customerId || r.customerId === f.customerId) &&
        (!f.sharingId || r.context?.sharingId === f.sharingId) &&
        (!f.from || responseSortKey(r) >= f.from) &&
        (!f.before || responseSortKey(r) < f.before),
    );
  }
  async list(f: ResponseFilter, page: PageQuery) {
    return pageOf(this.selected(f), page, (r) => ({ at: r.answeredAt, id: r.id }));
  }
  async findById(accountId: string, id: string) {
    return this.items.find((r) => r.accountId === accountId && r.id === id) ?? null;
  }
  async *answersOf(f: ResponseFilter) {
    for (const r of this.selected(f))
      yield { answers: r.answers, answeredAt: r.answeredAt, ...(r.context ? { customAttributes: r.context.customAttributes } : {}) };
  }
  async unpublished(before: Date, limit: number) {
    return this.items.filter((r) => r.pending && r.answeredAt <= before).slice(0, limit);
  }
  async markPublished(id: string) {
    const r = this.items.find((x) => x.id === id);
    if (r) r.pending = false;
  }
}

export class MemoryFlows implements FlowCatalog {
  readonly items: Flow[] = [];
  async get(accountId: string, flowId: string) {
    return this.items.find((f) => f.accountId === accountId && f.id === flowId) ?? null;
  }
}

export class MemoryEvents implements SurveyEvents {
  readonly answeredIds: string[] = [];
  failing = false;
  async answered(r: SurveyResponse) {
    if (this.failing) throw new Error('kafka down');
    this.answeredIds.push(r.id);
  }
}

/** A fixed test key: the hashes a test computes are the ones the code stored. */
export const testPersonalData = new PersonalDataProtector(Buffer.alloc(32, 7));

let n = 0;
export const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

export function memoryDeps(start = new Date('2026-11-22T09:30:00.000Z')) {
  const clock = { at: start, now: () => new Date(clock.at) };
  const deps = {
    channels: new MemoryChannels(),
    customers: new MemoryCustomers(),
    links: new MemoryLinks(),
    responses: new MemoryResponses(),
    flows: new MemoryFlows(),
    events: new MemoryEvents(),
    clock,
    newId: uuid,
    newToken: () => `tok_${String(++n).padStart(24, '0')}`,
    logger: createLogger('survey-test', 'silent'),
    config: {
      publicBaseUrl: 'https://feedback.example.com/',
      defaultPhoneRegion: 'TR',
      defaultLinkTtlDays: 7,
      customerSchemaAttributes: ['TCKN'],
      sensitiveAttributes: ['tckn'] as readonly string[],
    },
    personalData: testPersonalData,
  } satisfies SurveyDeps;
  return deps;
}

export type MemoryDeps = ReturnType<typeof memoryDeps>;

/** A flow with one question of every style of docs/flows.md. */
export function sampleFlow(accountId = 'acc-1', id = uuid()): Flow {
  const opts = (...keys: string[]) => keys.map((key) => ({ id: uuid(), key, body: { en: key.toUpperCase() } }));
  const q = (key: string, style: string, options = opts()) => ({
    id: uuid(),
    key,
    style,
    body: { en: `Q ${key}`, tr: `S ${key}` },
    options,
  });
  return {
    id,
    accountId,
    name: 'Checkout survey',
    createdAt: '2026-11-01T00:00:00.000Z',
    questions: [
      q('single', 'single_choice', opts('a', 'b')),
      q('multi', 'multiple_choice', opts('x', 'y', 'z')),
      q('drop', 'dropdown', opts('p', 'q')),
      q('nps', 'nps'),
      q('csat', 'csat'),
      q('ces', 'ces'),
      q('stars', 'star_rating'),
      q('emoji', 'emoji_rating'),
      q('yn', 'yes_no'),
      q('short', 'short_text'),
      q('long', 'long_text'),
      q('mail', 'email'),
      q('tel', 'phone'),
      q('num', 'number'),
      q('day', 'date'),
      q('intro', 'statement'),
    ],
  };
}
