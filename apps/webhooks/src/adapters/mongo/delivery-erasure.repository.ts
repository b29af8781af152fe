import type { Db } from 'mongodb';
import type { DeliveryEraser } from '../../domain/data-erasure.use-cases.js';

/** By (account_id, subjects): the account_subjects index (indexes.ts) over the hashes stored with each delivery. */
export class MongoDeliveryEraser implements DeliveryEraser {
  constructor(private readonly db: Db) {}

  async deleteBySubjects(accountId: string, hashes: string[]): Promise<number> {
    return (await this.db.collection('deliveries').deleteMany({ account_id: accountId, subjects: { $in: hashes } })).deletedCount;
  }
}
