import type { Collection, Db } from 'mongodb';
import { backlogByDate, insertOnce } from '@feedback/kit-stores';
import type { UploadOutbox } from '../../domain/ports.js';

interface OutboxDoc {
  _id: string;
  at: Date;
}

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
   * upload until Kafka confirms its event, so a healthy outbox holds only uploads in flight.
   */
  backlog(): Promise<{ pending: number; oldest: Date | null }> {
    return backlogByDate(this.entries, 'at');
  }
}
