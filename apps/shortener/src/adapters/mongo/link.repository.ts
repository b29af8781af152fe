import type { Page, PageQuery } from '@feedback/kit-core';
import { insertManyOnce, insertOnce, keysetPage } from '@feedback/kit-stores';
import type { Collection, Db, Filter } from 'mongodb';
import type { Link } from '../../domain/link.js';
import type { LinkOptions } from '../../domain/link-options.js';
import type { LinkFilter, LinkRepository } from '../../domain/ports.js';

/** The options are stored only when set: most links (an SMS's) have none. */
interface LinkDoc {
  _id: string;
  full_url: string;
  account_id: string | null;
  domain: string | null;
  created_at: Date;
  title?: string;
  tags?: string[];
  expires_at?: Date;
  max_clicks?: number;
  expired_url?: string;
}

/** Each option's field in the document. */
const OPTION_FIELDS = {
  title: 'title',
  tags: 'tags',
  expiresAt: 'expires_at',
  maxClicks: 'max_clicks',
  expiredUrl: 'expired_url',
} as const satisfies Record<keyof LinkOptions, keyof LinkDoc>;

function toDoc(link: Link): LinkDoc {
  const doc: LinkDoc = {
    _id: link.code,
    full_url: link.fullUrl,
    account_id: link.accountId,
    domain: link.domain,
    created_at: link.createdAt,
  };
  for (const [key, field] of Object.entries(OPTION_FIELDS)) {
    const value = link[key as keyof LinkOptions];
    if (value !== undefined) Object.assign(doc, { [field]: value });
  }
  return doc;
}

function fromDoc(doc: LinkDoc): Link {
  const link: Link = { code: doc._id, fullUrl: doc.full_url, accountId: doc.account_id, domain: doc.domain, createdAt: doc.created_at };
  for (const [key, field] of Object.entries(OPTION_FIELDS)) {
    if (doc[field] !== undefined && doc[field] !== null) Object.assign(link, { [key]: doc[field] });
  }
  return link;
}

export class MongoLinkRepository implements LinkRepository {
  private readonly links: Collection<LinkDoc>;

  constructor(db: Db) {
    this.links = db.collection<LinkDoc>('links');
  }

  async insertIfNew(link: Link): Promise<boolean> {
    return insertOnce(this.links, toDoc(link));
  }

  /** One round trip; unordered, so a taken code refuses only its own document. */
  async insertManyIfNew(links: Link[]): Promise<boolean[]> {
    return insertManyOnce(this.links, links.map(toDoc));
  }

  async findByCode(code: string): Promise<Link | null> {
    const doc = await this.links.findOne({ _id: code });
    return doc ? fromDoc(doc) : null;
  }

  /** Indexes account_created, account_domain_created, account_tags_created (indexes.ts): one per filter. */
  async list(f: LinkFilter, q: PageQuery): Promise<Page<Link>> {
    const filter: Filter<LinkDoc> = { account_id: f.accountId };
    if (f.domain !== undefined) filter.domain = f.domain;
    if (f.tag !== undefined) filter.tags = f.tag;
    if (f.createdAfter) filter.created_at = { $gt: f.createdAfter };
    // A domain and a tag both: the tag index serves, the domain is checked on what it finds.
    const accept = f.domain !== undefined && f.tag !== undefined ? (d: LinkDoc) => (d.domain ?? null) === f.domain : undefined;
    if (accept) delete filter.domain;
    const page = await keysetPage(this.links, q, { filter, order: { date: 'created_at' }, ...(accept && { accept }) });
    return { items: page.items.map(fromDoc), nextPageToken: page.nextPageToken };
  }

  async update(code: string, changes: LinkOptions): Promise<Link | null> {
    const set: Record<string, unknown> = {};
    const unset: Record<string, ''> = {};
    for (const [key, value] of Object.entries(changes)) {
      const field = OPTION_FIELDS[key as keyof LinkOptions];
      if (value === undefined) unset[field] = '';
      else set[field] = value;
    }
    const update = { ...(Object.keys(set).length > 0 && { $set: set }), ...(Object.keys(unset).length > 0 && { $unset: unset }) };
    if (Object.keys(update).length === 0) return this.findByCode(code);
    const doc = await this.links.findOneAndUpdate({ _id: code }, update, { returnDocument: 'after' });
    return doc ? fromDoc(doc) : null;
  }

  async ownedCodes(accountId: string, codes: string[]): Promise<string[]> {
    if (codes.length === 0) return [];
    // `$in` on `_id` (its own index); the account is checked on the documents found.
    const docs = await this.links.find({ _id: { $in: codes }, account_id: accountId }, { projection: { _id: 1 } }).toArray();
    return docs.map((d) => d._id);
  }
}
