import type { Page, PageQuery } from '@feedback/kit-core';
import { keysetPage } from '@feedback/kit-stores';
import type { Binary, Collection, Db } from 'mongodb';
import type { EndpointRepository } from '../../domain/ports.js';
import { OPERATOR_DISABLED, type Endpoint } from '../../domain/webhook.js';

interface SecretDoc {
  key_id: string;
  iv: Binary | Buffer;
  ciphertext: Binary | Buffer;
  tag: Binary | Buffer;
  expires_at: Date | null;
}

interface EndpointDoc {
  _id: string;
  account_id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabled_reason: string;
  failing_since: Date | null;
  secrets: SecretDoc[];
  created_at: Date;
  updated_at: Date;
}

const bytes = (b: Binary | Buffer): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer));

const toSecretDocs = (secrets: Endpoint['secrets']): SecretDoc[] =>
  secrets.map((s) => ({
    key_id: s.sealed.keyId,
    iv: Buffer.from(s.sealed.iv),
    ciphertext: Buffer.from(s.sealed.ciphertext),
    tag: Buffer.from(s.sealed.tag),
    expires_at: s.expiresAt,
  }));

function toEndpoint(d: EndpointDoc): Endpoint {
  return {
    id: d._id,
    accountId: d.account_id,
    url: d.url,
    events: d.events,
    description: d.description,
    enabled: d.enabled,
    disabledReason: d.disabled_reason,
    failingSince: d.failing_since,
    secrets: d.secrets.map((s) => ({
      sealed: { keyId: s.key_id, iv: bytes(s.iv), ciphertext: bytes(s.ciphertext), tag: bytes(s.tag) },
      expiresAt: s.expires_at,
    })),
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  };
}

export class MongoEndpointRepository implements EndpointRepository {
  private readonly endpoints: Collection<EndpointDoc>;

  constructor(db: Db) {
    this.endpoints = db.collection<EndpointDoc>('endpoints');
  }

  async insert(e: Endpoint): Promise<void> {
    await this.endpoints.insertOne({
      _id: e.id,
      account_id: e.accountId,
      url: e.url,
      events: e.events,
      description: e.description,
      enabled: e.enabled,
      disabled_reason: e.disabledReason,
      failing_since: e.failingSince,
      secrets: toSecretDocs(e.secrets),
      created_at: e.createdAt,
      updated_at: e.updatedAt,
    });
  }

  async find(accountId: string, id: string): Promise<Endpoint | null> {
    const d = await this.endpoints.findOne({ _id: id, account_id: accountId });
    return d && toEndpoint(d);
  }

  async findById(id: string): Promise<Endpoint | null> {
    const d = await this.endpoints.findOne({ _id: id });
    return d && toEndpoint(d);
  }

  /** From the account_created index (indexes.ts). */
  async list(accountId: string, page: PageQuery): Promise<Page<Endpoint>> {
    const { items, nextPageToken } = await keysetPage(this.endpoints, page, {
      filter: { account_id: accountId },
      order: { date: 'created_at' },
    });
    return { items: items.map(toEndpoint), nextPageToken };
  }

  async subscribed(accountId: string, type: string): Promise<Endpoint[]> {
    return (await this.endpoints.find({ account_id: accountId, events: type, enabled: true }).toArray()).map(toEndpoint);
  }

  async update(
    accountId: string,
    id: string,
    patch: Parameters<EndpointRepository['update']>[2],
    now: Date,
    guard?: Parameters<EndpointRepository['update']>[4],
  ): Promise<Endpoint | null> {
    const set: Partial<EndpointDoc> = { updated_at: now };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.events !== undefined) set.events = patch.events;
    if (patch.enabled !== undefined) set.enabled = patch.enabled;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.disabledReason !== undefined) set.disabled_reason = patch.disabledReason;
    if (patch.failingSince !== undefined) set.failing_since = patch.failingSince;
    if (patch.secrets !== undefined) set.secrets = toSecretDocs(patch.secrets);
    const filter = { _id: id, account_id: accountId, ...(guard ? { disabled_reason: { $ne: guard.unlessDisabledReason } } : {}) };
    const d = await this.endpoints.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' });
    return d && toEndpoint(d);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return (await this.endpoints.deleteOne({ _id: id, account_id: accountId })).deletedCount === 1;
  }

  count(accountId: string): Promise<number> {
    return this.endpoints.countDocuments({ account_id: accountId });
  }

  async markFailing(id: string, at: Date): Promise<Date> {
    await this.endpoints.updateOne({ _id: id, failing_since: null }, { $set: { failing_since: at } });
    const d = await this.endpoints.findOne({ _id: id }, { projection: { failing_since: 1 } });
    return d?.failing_since ?? at;
  }

  async markHealthy(id: string): Promise<void> {
    await this.endpoints.updateOne({ _id: id }, { $set: { failing_since: null } });
  }

  async disable(id: string, reason: string, now: Date): Promise<void> {
    // An attempt ending after the operator turned it off must not replace the operator's reason.
    await this.endpoints.updateOne(
      { _id: id, disabled_reason: { $ne: OPERATOR_DISABLED } },
      { $set: { enabled: false, disabled_reason: reason, failing_since: null, updated_at: now } },
    );
  }
}
