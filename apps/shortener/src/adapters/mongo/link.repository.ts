import { insertManyOnce, insertOnce } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { Link } from '../../domain/link.js';
import type { LinkRepository } from '../../domain/ports.js';

interface LinkDoc {
  _id: string;
  full_url: string;
  account_id: string | null;
  domain: string | null;
  created_at: Date;
}

const toDoc = (link: Link): LinkDoc => ({
  _id: link.code,
  full_url: link.fullUrl,
  account_id: link.accountId,
  domain: link.domain,
  created_at: link.createdAt,
});

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
    if (!doc) return null;
    return { code: doc._id, fullUrl: doc.full_url, accountId: doc.account_id, domain: doc.domain, createdAt: doc.created_at };
  }

  async ownedCodes(accountId: string, codes: string[]): Promise<string[]> {
    if (codes.length === 0) return [];
    // `$in` on `_id` (its own index); the account is checked on the documents found.
    const docs = await this.links.find({ _id: { $in: codes }, account_id: accountId }, { projection: { _id: 1 } }).toArray();
    return docs.map((d) => d._id);
  }
}
