import type { Collection, Db } from 'mongodb';
import { insertOnce } from '@feedback/kit-stores';
import type { FileEntry, ProcessingOutcome, ProcessingState } from '../../domain/file-entry.js';
import type { ProcessingRecord, ProcessingRepository } from '../../domain/ports.js';

interface ProcessingDoc {
  /** The file id: one record per file, so the first insert wins. */
  _id: string;
  account_id: string;
  directory_id: string;
  state: Exclude<ProcessingState, 'unprocessed'>;
  /** The claimer (processing) or the file that superseded this one. */
  by: string;
  at: Date;
  completed_at: Date | null;
}

export class MongoProcessingRepository implements ProcessingRepository {
  private readonly records: Collection<ProcessingDoc>;

  constructor(db: Db) {
    this.records = db.collection<ProcessingDoc>('processing');
  }

  async mark(file: FileEntry, state: 'processing' | 'superseded', by: string, at: Date): Promise<boolean> {
    return insertOnce(this.records, {
      _id: file.id,
      account_id: file.accountId,
      directory_id: file.directoryId,
      state,
      by,
      at,
      completed_at: null,
    });
  }

  async states(fileIds: string[]): Promise<Map<string, ProcessingRecord>> {
    const docs = await this.records.find({ _id: { $in: fileIds } }).toArray();
    return new Map(docs.map((d) => [d._id, { state: d.state, claimedBy: d.state === 'superseded' ? null : d.by }]));
  }

  /** Only the claimer writes its record after the insert, so this read-then-write cannot race. */
  async complete(accountId: string, fileId: string, claimer: string, outcome: ProcessingOutcome, at: Date): Promise<boolean> {
    const res = await this.records.updateOne(
      { _id: fileId, account_id: accountId, state: 'processing', by: claimer },
      { $set: { state: outcome, completed_at: at } },
    );
    return res.matchedCount === 1;
  }
}
