import type { PageQuery } from '@feedback/kit-core';
import { insertManyOnce, keysetPage } from '@feedback/kit-stores';
import type { Collection, Db, Filter } from 'mongodb';
import type { OptOutPage, OptOutSource, SmsOptOut } from '../../domain/opt-out.js';
import type { OptOutRepository } from '../../ports.js';

/** A phone taken off an account's list, kept a day so other processes' snapshots see it go. */
interface RemovalDoc {
  _id: string;
  account_id: string;
  phone: string;
  removed_at: Date;
}

/** What changed on an account's list since a time: phones added and removed, each with when. */
export interface OptOutChanges {
  added: { phone: string; at: Date }[];
  removed: { phone: string; at: Date }[];
}

/** How long removals are kept for the snapshots (opt-out.snapshots.ts) to catch up with. */
export const REMOVALS_KEPT_MS = 24 * 3_600_000;

interface OptOutDoc {
  /** `<account id>.<phone>`: adding a phone twice keeps the first entry (and its source and date). */
  _id: string;
  account_id: string;
  phone: string;
  source: OptOutSource;
  created_at: Date;
}

/** Collection `sms_opt_outs`; indexes in indexes.ts (unique account and phone; account by date for the list). */
export class MongoOptOutRepository implements OptOutRepository {
  private readonly docs: Collection<OptOutDoc>;
  private readonly removals: Collection<RemovalDoc>;

  constructor(db: Db) {
    this.docs = db.collection<OptOutDoc>('sms_opt_outs');
    this.removals = db.collection<RemovalDoc>('sms_opt_out_removals');
  }

  /** Every phone on the account's list (covered by the (account_id, phone) index). */
  async allPhones(accountId: string): Promise<string[]> {
    const docs = await this.docs
      .find({ account_id: accountId }, { projection: { _id: 0, phone: 1 } })
      .batchSize(20_000)
      .toArray();
    return docs.map((d) => d.phone);
  }

  /** Phones added and removed since `since` (two indexed reads, usually empty). */
  async changesSince(accountId: string, since: Date): Promise<OptOutChanges> {
    const [added, removed] = await Promise.all([
      this.docs.find({ account_id: accountId, created_at: { $gt: since } }, { projection: { _id: 0, phone: 1, created_at: 1 } }).toArray(),
      this.removals
        .find({ account_id: accountId, removed_at: { $gt: since } }, { projection: { _id: 0, phone: 1, removed_at: 1 } })
        .toArray(),
    ]);
    return {
      added: added.map((d) => ({ phone: d.phone, at: d.created_at })),
      removed: removed.map((d) => ({ phone: d.phone, at: d.removed_at })),
    };
  }

  async addMany(e: { accountId: string; phones: string[]; source: OptOutSource; at: Date }): Promise<boolean[]> {
    return insertManyOnce(
      this.docs,
      e.phones.map((phone) => ({ _id: idOf(e.accountId, phone), account_id: e.accountId, phone, source: e.source, created_at: e.at })),
    );
  }

  async findOptedOut(accountId: string, phones: string[]): Promise<Set<string>> {
    if (phones.length === 0) return new Set();
    // Covered by the (account_id, phone) index: no document is read.
    const found = await this.docs.find({ account_id: accountId, phone: { $in: phones } }, { projection: { _id: 0, phone: 1 } }).toArray();
    return new Set(found.map((d) => d.phone));
  }

  /** Index account_created; with a phone, account_phone (one entry at most). */
  async list(q: { accountId: string; phone?: string; page: PageQuery }): Promise<OptOutPage> {
    const filter: Filter<OptOutDoc> = { account_id: q.accountId };
    if (q.phone) filter.phone = q.phone;
    const { items, nextPageToken } = await keysetPage(this.docs, q.page, { filter, order: { date: 'created_at' } });
    return {
      items: items.map((d) => ({ accountId: d.account_id, phone: d.phone, source: d.source, createdAt: d.created_at }) satisfies SmsOptOut),
      nextPageToken,
    };
  }

  async remove(accountId: string, phone: string): Promise<boolean> {
    const removed = (await this.docs.deleteOne({ _id: idOf(accountId, phone) })).deletedCount === 1;
    // Noted after the delete: a snapshot that reads the note finds the phone gone too.
    if (removed) {
      await this.removals.replaceOne(
        { _id: idOf(accountId, phone) },
        { account_id: accountId, phone, removed_at: new Date() },
        { upsert: true },
      );
    }
    return removed;
  }
}

const idOf = (accountId: string, phone: string) => `${accountId}.${phone}`;
