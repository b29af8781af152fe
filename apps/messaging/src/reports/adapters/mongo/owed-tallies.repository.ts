import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { OwedTallies, TakenEntries } from '../../tally.ports.js';
import type { OwedEntry, OwedRecord } from '../../domain/tally.js';

/** The fields of a message record or a sharing the relay reads. */
interface OwingDoc {
  _id: string;
  account_id: string;
  campaign_id: string;
  sharing_id?: string;
  reminder?: number;
  tally_owed?: OwedEntry[];
}

/**
 * Records with owed entries: served by the partial index `tally_owed` (shared/adapters/mongo/indexes.ts),
 * which holds only them; the query names the index's filter, a range the local server can prove.
 */
export const OWING = { 'tally_owed.at': { $gte: new Date(0) } };

/** Message records (`sms_messages`) and sharings (`sharings`, their accepted recipients) that owe the counters entries. */
export class MongoOwedTallies implements OwedTallies {
  private readonly messages: Collection<OwingDoc>;
  private readonly sharings: Collection<OwingDoc>;

  constructor(db: Db) {
    this.messages = db.collection<OwingDoc>('sms_messages');
    this.sharings = db.collection<OwingDoc>('sharings');
  }

  async take(limit: number): Promise<OwedRecord[]> {
    const projection = { account_id: 1, campaign_id: 1, sharing_id: 1, reminder: 1, tally_owed: 1 };
    const sharings = await this.sharings.find(OWING, { projection, limit }).toArray();
    const messages =
      sharings.length < limit ? await this.messages.find(OWING, { projection, limit: limit - sharings.length }).toArray() : [];
    return [...sharings.map((d) => toRecord(d, 'sharing')), ...messages.map((d) => toRecord(d, 'message'))].filter(
      (r) => r.owed.length > 0,
    );
  }

  async settle(records: TakenEntries[]): Promise<void> {
    const pull = (kind: TakenEntries['kind']): AnyBulkWriteOperation<OwingDoc>[] =>
      records
        .filter((r) => r.kind === kind && r.owed.length > 0)
        .map((r) => ({ updateOne: { filter: { _id: r.id }, update: { $pullAll: { tally_owed: r.owed } } } }));
    await Promise.all([bulk(this.sharings, pull('sharing')), bulk(this.messages, pull('message'))]);
  }

  /** How many records owe entries (up to `cap`) and the oldest entry's time: the relay's lag, for its metric. */
  async backlog(cap = 10_000): Promise<{ pending: number; oldest: Date | null }> {
    const [m, s, oldestM, oldestS] = await Promise.all([
      this.messages.countDocuments(OWING, { limit: cap, maxTimeMS: 2_000 }),
      this.sharings.countDocuments(OWING, { limit: cap, maxTimeMS: 2_000 }),
      oldestOf(this.messages),
      oldestOf(this.sharings),
    ]);
    const oldest = [oldestM, oldestS].filter((d): d is Date => d !== null).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
    return { pending: m + s, oldest };
  }
}

async function oldestOf(c: Collection<OwingDoc>): Promise<Date | null> {
  const d = await c.findOne(OWING, { sort: { 'tally_owed.at': 1 }, projection: { tally_owed: 1 }, maxTimeMS: 2_000 });
  const ats = (d?.tally_owed ?? []).map((e) => e.at.getTime());
  return ats.length > 0 ? new Date(Math.min(...ats)) : null;
}

async function bulk(c: Collection<OwingDoc>, ops: AnyBulkWriteOperation<OwingDoc>[]): Promise<void> {
  if (ops.length > 0) await c.bulkWrite(ops, { ordered: false });
}

function toRecord(d: OwingDoc, kind: OwedRecord['kind']): OwedRecord {
  return {
    kind,
    id: d._id,
    accountId: d.account_id,
    campaignId: d.campaign_id,
    sharingId: kind === 'sharing' ? d._id : (d.sharing_id ?? ''),
    reminder: d.reminder ?? 0,
    owed: d.tally_owed ?? [],
  };
}
