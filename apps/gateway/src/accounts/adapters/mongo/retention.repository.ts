import type { RetentionKind } from '@feedback/kit-core';
import type { Collection, Db } from 'mongodb';
import type { RetentionRepository, StoredRetention } from '../../domain/retention.use-cases.js';

interface RetentionDoc {
  /** The account id. */
  _id: string;
  retention_days: number | null;
  days: Partial<Record<RetentionKind, number>>;
  version: number;
  updated_at: Date;
}

/** Accounts' retention settings (collection `account_retention`); an account without one follows the defaults. */
export class MongoRetentionRepository implements RetentionRepository {
  private readonly col: Collection<RetentionDoc>;
  constructor(db: Db) {
    this.col = db.collection<RetentionDoc>('account_retention');
  }

  async find(accountId: string): Promise<StoredRetention | null> {
    const d = await this.col.findOne({ _id: accountId });
    return d ? { accountId: d._id, retentionDays: d.retention_days, days: d.days, version: d.version, updatedAt: d.updated_at } : null;
  }

  async save(s: StoredRetention): Promise<void> {
    await this.col.replaceOne(
      { _id: s.accountId },
      { retention_days: s.retentionDays, days: s.days, version: s.version, updated_at: s.updatedAt },
      { upsert: true },
    );
  }
}
