import type { Collection, Db } from 'mongodb';
import { insertOnce } from '@feedback/kit-stores';
import type { UploadOutbox } from '../../domain/ports.js';

interface OutboxDoc {
  _id: string;
  at: Date;
}

/** Beyond this the outbox is simply "very behind"; counting further would cost a scan per scrape. */
const BACKLOG_COUNT_CAP = 10_000;
const BACKLOG_MAX_TIME_MS = 2_000;

export class MongoUploadOutbox implements UploadOutbox {
  private readonly entries: Collection<OutboxDoc>;

  constructor(db: Db) {
    this.entries = db.collection<OutboxDoc>('upload_outbox');
  }

  async add(fileId: string, at: Date): Promise<void> {
    await insertOnce(this.entries, { _id: fileId, at });
  }

  async drop(fileId: string): Promise<void> {
    await this.entries.deleteOne({ _id: fileId });
  }

  async due(before: Date, limit: number): Promise<string[]> {
    const docs = await this.entries
      .find({ at: { $lte: before } })
      .sort({ at: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d._id);
  }

  /**
   * The file.uploaded outbox for metrics (kit-metrics outboxBacklogMetrics): entries live from an
   * upload until Kafka confirms its event, so a healthy outbox holds only uploads in flight. Both
   * queries walk the `at` index; the count stops at BACKLOG_COUNT_CAP, each has a server time limit.
   */
  async backlog(): Promise<{ pending: number; oldest: Date | null }> {
    const all = { at: { $gte: new Date(0) } };
    const [count, oldest] = await Promise.all([
      this.entries.countDocuments(all, { limit: BACKLOG_COUNT_CAP, maxTimeMS: BACKLOG_MAX_TIME_MS }),
      this.entries.findOne(all, { sort: { at: 1 }, projection: { at: 1 }, maxTimeMS: BACKLOG_MAX_TIME_MS }),
    ]);
    return { pending: count, oldest: oldest?.at ?? null };
  }
}
