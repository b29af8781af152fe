import { insertOnce } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { ClickTally, ClickTallyRepository } from '../../domain/ports.js';

/** One document per link: `{_id: code, count, checkpoints: {p0: offset, p1: offset, ...}}`. */
interface TallyDoc {
  _id: string;
  count: number;
  checkpoints: Record<string, number>;
}

// Field names, not array positions: `checkpoints.0` would be ambiguous to MongoDB.
const key = (partition: number) => `p${partition}`;

export class MongoClickTallyRepository implements ClickTallyRepository {
  private readonly tallies: Collection<TallyDoc>;

  constructor(db: Db) {
    this.tallies = db.collection<TallyDoc>('click_tallies');
  }

  async get(code: string): Promise<ClickTally | null> {
    const doc = await this.tallies.findOne({ _id: code });
    if (!doc) return null;
    const checkpoints: Record<number, number> = {};
    for (const [k, v] of Object.entries(doc.checkpoints ?? {})) checkpoints[Number(k.slice(1))] = v;
    return { count: doc.count, checkpoints };
  }

  async advance(code: string, partition: number, change: { from: number | null; to: number; add: number }): Promise<boolean> {
    const path = `checkpoints.${key(partition)}`;
    const expected = change.from === null ? { $exists: false } : change.from;
    const res = await this.tallies.updateOne({ _id: code, [path]: expected }, { $inc: { count: change.add }, $set: { [path]: change.to } });
    if (res.matchedCount === 1) return true;
    if (change.from !== null) return false;
    // No document yet: the first click of this link. A concurrent first insert loses here and retries.
    return insertOnce(this.tallies, { _id: code, count: change.add, checkpoints: { [key(partition)]: change.to } });
  }

  async countClicked(codes: string[]): Promise<number> {
    if (codes.length === 0) return 0;
    // A tally exists from a link's first counted click on; `$in` on `_id` (its own index).
    return this.tallies.countDocuments({ _id: { $in: codes }, count: { $gt: 0 } });
  }

  async countsOf(codes: string[]): Promise<Map<string, number>> {
    if (codes.length === 0) return new Map();
    const docs = await this.tallies.find({ _id: { $in: codes } }, { projection: { count: 1 } }).toArray();
    return new Map(docs.map((d) => [d._id, d.count]));
  }
}
