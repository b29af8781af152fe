import { duplicateKeyIndexes, insertManyOnce, upsertAndRead } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { SendContext, SurveyLink } from '../../domain/link.js';
import type { LinkActivation, LinkRepository } from '../../domain/ports.js';

export interface LinkDoc {
  _id: string;
  account_id: string;
  channel_id: string;
  customer_id: string;
  node_id: string;
  flow_id: string;
  node_name: string;
  flow_name: string;
  channel_name: string;
  token: string;
  activation: number;
  activated_at: Date;
  answered_at: Date | null;
  expires_at: Date;
  built_in_responses: Record<string, string>;
  created_at: Date;
  /** Absent on links activated without a phone, and on links last activated before it was kept. */
  phone?: string;
  /** The last activation's send context; absent on links last activated before it was kept. */
  context?: ContextDoc;
}

/** SendContext as stored on links and responses; absent ids are left out. */
export interface ContextDoc {
  campaign_id?: string;
  sharing_id?: string;
  message_id?: string;
  custom_attributes: Record<string, string>;
}

export const toContextDoc = (c: SendContext): ContextDoc => ({
  ...(c.campaignId !== undefined ? { campaign_id: c.campaignId } : {}),
  ...(c.sharingId !== undefined ? { sharing_id: c.sharingId } : {}),
  ...(c.messageId !== undefined ? { message_id: c.messageId } : {}),
  custom_attributes: c.customAttributes,
});

export const toContext = (d: ContextDoc): SendContext => ({
  ...(d.campaign_id !== undefined ? { campaignId: d.campaign_id } : {}),
  ...(d.sharing_id !== undefined ? { sharingId: d.sharing_id } : {}),
  ...(d.message_id !== undefined ? { messageId: d.message_id } : {}),
  customAttributes: d.custom_attributes ?? {},
});

export const toLink = (d: LinkDoc): SurveyLink => ({
  id: d._id,
  accountId: d.account_id,
  channelId: d.channel_id,
  customerId: d.customer_id,
  nodeId: d.node_id,
  flowId: d.flow_id,
  nodeName: d.node_name,
  flowName: d.flow_name,
  channelName: d.channel_name,
  token: d.token,
  activation: d.activation,
  activatedAt: d.activated_at,
  answeredAt: d.answered_at ?? null,
  expiresAt: d.expires_at,
  builtInResponses: d.built_in_responses ?? {},
  createdAt: d.created_at,
  ...(d.phone !== undefined ? { phone: d.phone } : {}),
  ...(d.context ? { context: toContext(d.context) } : {}),
});

/** Equality on exactly the fields of the unique account_channel_customer index (indexes.ts). */
const activationFilter = (a: LinkActivation) => ({ account_id: a.accountId, channel_id: a.channelId, customer_id: a.customerId });

const activationUpdate = (a: LinkActivation) => ({
  $set: {
    node_id: a.nodeId,
    flow_id: a.flowId,
    node_name: a.nodeName,
    flow_name: a.flowName,
    channel_name: a.channelName,
    activated_at: a.activatedAt,
    answered_at: null,
    expires_at: a.expiresAt,
    built_in_responses: a.builtInResponses,
    // An activation without a phone (a personal link by e-mail) leaves the last SMS's phone.
    ...(a.phone !== undefined ? { phone: a.phone } : {}),
    // Replaced by every activation: a response belongs to one activation, and keeps its copy.
    ...(a.context ? { context: toContextDoc(a.context) } : {}),
  },
  $inc: { activation: 1 },
  $setOnInsert: { _id: a.newId, token: a.newToken, created_at: a.activatedAt },
});

/**
 * `doc` with its fields in the order the server gives an upserted document: _id, the fields the
 * filter seeded, then the ones the update added, each group by name (mongod; SecantusDB's
 * _order_upserted_doc).
 */
function inUpsertOrder<T extends { _id: unknown }>(doc: T, seeded: string[]): T {
  const rest = Object.keys(doc)
    .filter((k) => k !== '_id')
    .sort();
  const keys = ['_id', ...rest.filter((k) => seeded.includes(k)), ...rest.filter((k) => !seeded.includes(k))];
  return Object.fromEntries(keys.map((k) => [k, doc[k as keyof T]])) as T;
}

/**
 * The document activate's upsert creates when the link does not exist, from the same filter and
 * update so the two cannot drift apart; `$inc` on a missing field sets it to the increment.
 */
function firstActivationDoc(a: LinkActivation): LinkDoc {
  const filter = activationFilter(a);
  const { $set, $inc, $setOnInsert } = activationUpdate(a);
  return inUpsertOrder<LinkDoc>({ ...filter, ...$set, ...$inc, ...$setOnInsert }, Object.keys(filter));
}

const pairKey = (channelId: string, customerId: string) => `${channelId}\0${customerId}`;

/** A customer has one link per channel; more active ones at one node than this are not listed. */
const MAX_ACTIVE = 500;

export class MongoLinkRepository implements LinkRepository {
  private readonly links: Collection<LinkDoc>;

  constructor(db: Db) {
    this.links = db.collection<LinkDoc>('links');
  }

  async activate(a: LinkActivation): Promise<SurveyLink> {
    // Two first activations racing, or SecantusDB's upsert without a document: kit-stores handles both.
    return toLink(await upsertAndRead(this.links, activationFilter(a), activationUpdate(a)));
  }

  async activateMany(activations: LinkActivation[]): Promise<Array<SurveyLink | null>> {
    if (activations.length === 0) return [];
    const accountId = activations[0]!.accountId;
    const pairs = new Set(activations.map((a) => pairKey(a.channelId, a.customerId)));
    // One document, one update: two updates of one link in a bulk write would look like one here.
    if (pairs.size < activations.length || activations.some((a) => a.accountId !== accountId))
      throw new Error('activateMany: one account, each (channel, customer) at most once');
    let refused = new Set<number>();
    try {
      await this.links.bulkWrite(
        activations.map((a) => ({ updateOne: { filter: activationFilter(a), update: activationUpdate(a), upsert: true } })),
        { ordered: false },
      );
    } catch (err) {
      // A first activation that raced a concurrent one to the unique key: not applied.
      refused = duplicateKeyIndexes(err);
    }
    const applied = activations.filter((_, i) => !refused.has(i));
    const docs = await this.readBack(accountId, applied);
    return activations.map((a, i) => {
      if (refused.has(i)) return null;
      const doc = docs.get(pairKey(a.channelId, a.customerId));
      if (!doc) throw new Error(`activateMany: link of ${a.channelId}/${a.customerId} missing after its upsert`);
      return toLink(doc);
    });
  }

  async insertNew(activations: LinkActivation[]): Promise<Array<SurveyLink | null>> {
    const docs = activations.map(firstActivationDoc);
    // Refused by the unique key: a concurrent first activation created the link in between.
    const inserted = await insertManyOnce(this.links, docs);
    return docs.map((d, i) => (inserted[i] ? toLink(d) : null));
  }

  /** One query per channel, equality on the unique index's first fields and `$in` on the last (indexes.ts). */
  private async readBack(accountId: string, activations: LinkActivation[]): Promise<Map<string, LinkDoc>> {
    const customersByChannel = new Map<string, string[]>();
    for (const a of activations) {
      const customerIds = customersByChannel.get(a.channelId);
      if (customerIds) customerIds.push(a.customerId);
      else customersByChannel.set(a.channelId, [a.customerId]);
    }
    const found = await Promise.all(
      [...customersByChannel].map(([channelId, customerIds]) =>
        this.links.find({ account_id: accountId, channel_id: channelId, customer_id: { $in: customerIds } }).toArray(),
      ),
    );
    return new Map(found.flat().map((d) => [pairKey(d.channel_id, d.customer_id), d]));
  }

  async findByToken(token: string): Promise<SurveyLink | null> {
    const doc = await this.links.findOne({ token });
    return doc ? toLink(doc) : null;
  }

  async findActive(q: { accountId: string; customerId: string; nodeId: string; channelId?: string; now: Date }): Promise<SurveyLink[]> {
    // Equality on exactly the fields of the account_customer_node index, so either server walks only this
    // customer's links at the node (one per channel); the rest is checked here (indexes.ts).
    const docs = await this.links.find({ account_id: q.accountId, customer_id: q.customerId, node_id: q.nodeId }).toArray();
    return docs
      .filter((d) => (!q.channelId || d.channel_id === q.channelId) && (d.answered_at ?? null) === null && d.expires_at > q.now)
      .slice(0, MAX_ACTIVE)
      .map(toLink);
  }

  async markAnswered(linkId: string, activation: number, at: Date): Promise<boolean> {
    const res = await this.links.updateOne({ _id: linkId, activation, answered_at: null }, { $set: { answered_at: at } });
    return res.modifiedCount === 1;
  }

  async findByPhones(accountId: string, channelId: string, phones: string[]): Promise<SurveyLink[]> {
    if (phones.length === 0) return [];
    // Equality on the account_channel_phone index's first fields and `$in` on its last (indexes.ts).
    const docs = await this.links.find({ account_id: accountId, channel_id: channelId, phone: { $in: phones } }).toArray();
    return docs.map(toLink);
  }
}
