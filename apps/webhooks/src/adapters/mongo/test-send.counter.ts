import type { Collection, Db } from 'mongodb';
import type { TestSendCounter } from '../../domain/ports.js';

interface WindowDoc {
  /** `<account id>:<window start, ms>` */
  _id: string;
  count: number;
  /** The window's end: the TTL index drops windows gone by. */
  expires_at: Date;
}

/** One document per account and window, counted with $inc: racing requests each get their own count. */
export class MongoTestSendCounter implements TestSendCounter {
  private readonly windows: Collection<WindowDoc>;

  constructor(db: Db) {
    this.windows = db.collection<WindowDoc>('test_sends');
  }

  async hit(accountId: string, windowStart: Date, windowEnd: Date): Promise<number> {
    const d = await this.windows.findOneAndUpdate(
      { _id: `${accountId}:${windowStart.getTime()}` },
      { $inc: { count: 1 }, $setOnInsert: { expires_at: windowEnd } },
      { upsert: true, returnDocument: 'after' },
    );
    return d?.count ?? 1;
  }
}
