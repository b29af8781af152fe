import type { Db } from 'mongodb';
import type { ShortLinkEraser } from '../../domain/data-erasure.use-cases.js';

/** By (account_id, full_url): the account_full_url index (indexes.ts). */
export class MongoLinkEraser implements ShortLinkEraser {
  constructor(private readonly db: Db) {}

  async deleteByTargets(accountId: string, fullUrls: string[]): Promise<number> {
    return (await this.db.collection('links').deleteMany({ account_id: accountId, full_url: { $in: fullUrls } })).deletedCount;
  }
}
