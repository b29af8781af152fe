import type { Collection, Db } from 'mongodb';
import { insertOnce } from '@feedback/kit-stores';
import type { ObjectSweepList } from '../../domain/ports.js';

interface SweepDoc {
  _id: string;
  object_key: string;
  not_before: Date;
}

export class MongoObjectSweepList implements ObjectSweepList {
  private readonly entries: Collection<SweepDoc>;

  constructor(db: Db) {
    this.entries = db.collection<SweepDoc>('object_sweep');
  }

  async add(fileId: string, objectKey: string, notBefore: Date): Promise<void> {
    // false = already listed: a concurrent delete of the same file.
    await insertOnce(this.entries, { _id: fileId, object_key: objectKey, not_before: notBefore });
  }

  async drop(fileId: string): Promise<void> {
    await this.entries.deleteOne({ _id: fileId });
  }

  async due(now: Date, limit: number) {
    const docs = await this.entries
      .find({ not_before: { $lte: now } })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ fileId: d._id, objectKey: d.object_key }));
  }
}
