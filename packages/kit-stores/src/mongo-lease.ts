import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo.js';
import type { JobLease } from './periodic-job.js';

interface LeaseDoc {
  _id: string;
  owner: string;
  until: Date;
}

/**
 * A lease one replica holds at a time: a periodic job's leader election (periodic-job.ts). One
 * document per lease id in `collection` (default `retention_lease`, where the retention sweeps'
 * lease has always been).
 */
export class MongoLease implements JobLease {
  private readonly docs: Collection<LeaseDoc>;

  constructor(
    db: Db,
    private readonly id = 'retention',
    collection = 'retention_lease',
  ) {
    this.docs = db.collection<LeaseDoc>(collection);
  }

  async lead(owner: string, now: Date, until: Date): Promise<boolean> {
    try {
      // Taken when free (expired) or already ours; the unique _id makes one of two racing upserts fail.
      const d = await this.docs.findOneAndUpdate(
        { _id: this.id, $or: [{ owner }, { until: { $lt: now } }] },
        { $set: { owner, until } },
        { upsert: true, returnDocument: 'after' },
      );
      return d?.owner === owner;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}
