import type { Collection, Db } from 'mongodb';
import type { FileEntry } from '../../domain/file-entry.js';
import type { FileRepository } from '../../domain/ports.js';
import type { FileProcessing } from '../../domain/processing.js';
import { FILES, toFileDoc, toFileEntry, toProcessingDoc, type FileDoc } from './file-doc.js';

export class MongoFileRepository implements FileRepository {
  private readonly files: Collection<FileDoc>;

  constructor(db: Db) {
    this.files = db.collection<FileDoc>(FILES);
  }

  async insert(file: FileEntry): Promise<void> {
    await this.files.insertOne(toFileDoc(file));
  }

  async findById(accountId: string, directoryId: string, id: string): Promise<FileEntry | null> {
    const doc = await this.files.findOne({ _id: id, account_id: accountId, directory_id: directoryId });
    return doc ? toFileEntry(doc) : null;
  }

  async findAny(id: string): Promise<FileEntry | null> {
    const doc = await this.files.findOne({ _id: id });
    return doc ? toFileEntry(doc) : null;
  }

  async findByBlobToken(blobToken: string): Promise<FileEntry | null> {
    const doc = await this.files.findOne({ blob_token: blobToken });
    return doc ? toFileEntry(doc) : null;
  }

  async list(accountId: string, directoryId: string): Promise<FileEntry[]> {
    const docs = await this.files.find({ account_id: accountId, directory_id: directoryId }).sort({ created_at: -1, _id: -1 }).toArray();
    return docs.map(toFileEntry);
  }

  async listByName(q: { accountId: string; directoryId: string; filename: string; notBefore: Date }): Promise<FileEntry[]> {
    const docs = await this.files
      .find({
        account_id: q.accountId,
        directory_id: q.directoryId,
        filename: q.filename,
        expired_at: null,
        created_at: { $gt: q.notBefore },
      })
      .sort({ created_at: -1, _id: -1 })
      .toArray();
    return docs.map(toFileEntry);
  }

  async remove(id: string): Promise<boolean> {
    return (await this.files.deleteOne({ _id: id })).deletedCount === 1;
  }

  /** One conditional update: of two reports, only the one that finds no final status writes. */
  async recordProcessing(id: string, processing: FileProcessing): Promise<boolean> {
    const res = await this.files.updateOne(
      { _id: id, 'processing.status': { $nin: ['processed', 'failed'] } },
      { $set: { processing: toProcessingDoc(processing), processed_event_due: true } },
    );
    return res.modifiedCount === 1;
  }

  async processedEventsDue(before: Date, limit: number): Promise<FileEntry[]> {
    const docs = await this.files
      .find({ processed_event_due: true, 'processing.processed_at': { $lte: before } })
      .limit(limit)
      .toArray();
    return docs.map(toFileEntry);
  }

  async processedEventSent(id: string): Promise<void> {
    await this.files.updateOne({ _id: id }, { $unset: { processed_event_due: '' } });
  }
}
