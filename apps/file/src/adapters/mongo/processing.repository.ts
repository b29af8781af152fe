import type { Collection, Db, Filter } from 'mongodb';
import type { FileEntry, ProcessingOutcome } from '../../domain/file-entry.js';
import type { ProcessingRepository } from '../../domain/ports.js';
import { FILES, toFileEntry, type FileDoc } from './file-doc.js';

/** Files of the same name in the same directory, still live. */
const sameName = (f: FileEntry): Filter<FileDoc> => ({ account_id: f.accountId, directory_id: f.directoryId, filename: f.filename, deleted_at: null });

/** Strictly after `f` in upload order: later created_at, ties broken by id (as the claim's sort). */
const newerThan = (f: FileEntry): Filter<FileDoc> => ({
  $or: [{ created_at: { $gt: f.createdAt } }, { created_at: f.createdAt, _id: { $gt: f.id } }],
});
const olderThan = (f: FileEntry): Filter<FileDoc> => ({
  $or: [{ created_at: { $lt: f.createdAt } }, { created_at: f.createdAt, _id: { $lt: f.id } }],
});

export class MongoProcessingRepository implements ProcessingRepository {
  private readonly files: Collection<FileDoc>;

  constructor(db: Db) {
    this.files = db.collection<FileDoc>(FILES);
  }

  async claimNewestUnprocessed(
    q: { accountId: string; directoryId: string; filename: string; notBefore: Date },
    claimer: string,
    at: Date,
  ): Promise<FileEntry | null> {
    const doc = await this.files.findOneAndUpdate(
      {
        account_id: q.accountId,
        directory_id: q.directoryId,
        filename: q.filename,
        processing_state: 'unprocessed',
        deleted_at: null,
        expired_at: null,
        created_at: { $gt: q.notBefore },
      },
      { $set: { processing_state: 'processing', claimed_by: claimer, claimed_at: at } },
      { sort: { created_at: -1, _id: -1 }, returnDocument: 'after' },
    );
    return doc ? toFileEntry(doc) : null;
  }

  async hasNewer(file: FileEntry): Promise<boolean> {
    const doc = await this.files.findOne({ ...sameName(file), ...newerThan(file) }, { projection: { _id: 1 } });
    return doc !== null;
  }

  async releaseAsSuperseded(file: FileEntry, claimer: string, at: Date): Promise<void> {
    await this.files.updateOne(
      { _id: file.id, processing_state: 'processing', claimed_by: claimer },
      { $set: { processing_state: 'superseded', completed_at: at } },
    );
  }

  async supersedeOlder(file: FileEntry, at: Date): Promise<number> {
    const res = await this.files.updateMany(
      { ...sameName(file), ...olderThan(file), processing_state: 'unprocessed' },
      { $set: { processing_state: 'superseded', completed_at: at } },
    );
    return res.modifiedCount;
  }

  async complete(accountId: string, fileId: string, claimer: string, outcome: ProcessingOutcome, at: Date): Promise<FileEntry | null> {
    const doc = await this.files.findOneAndUpdate(
      { _id: fileId, account_id: accountId, processing_state: 'processing', claimed_by: claimer, deleted_at: null },
      { $set: { processing_state: outcome, completed_at: at } },
      { returnDocument: 'after' },
    );
    return doc ? toFileEntry(doc) : null;
  }

  async findAny(accountId: string, fileId: string): Promise<FileEntry | null> {
    const doc = await this.files.findOne({ _id: fileId, account_id: accountId, deleted_at: null });
    return doc ? toFileEntry(doc) : null;
  }
}
