import type { Collection, Db } from 'mongodb';
import type { FileEntry } from '../../domain/file-entry.js';
import type { FileRepository } from '../../domain/ports.js';
import { FILES, toFileDoc, toFileEntry, type FileDoc } from './file-doc.js';

export class MongoFileRepository implements FileRepository {
  private readonly files: Collection<FileDoc>;

  constructor(db: Db) {
    this.files = db.collection<FileDoc>(FILES);
  }

  async insert(file: FileEntry): Promise<void> {
    await this.files.insertOne(toFileDoc(file));
  }

  async findById(accountId: string, directoryId: string, id: string): Promise<FileEntry | null> {
    const doc = await this.files.findOne({ _id: id, account_id: accountId, directory_id: directoryId, deleted_at: null });
    return doc ? toFileEntry(doc) : null;
  }

  async findByBlobToken(blobToken: string): Promise<FileEntry | null> {
    const doc = await this.files.findOne({ blob_token: blobToken, deleted_at: null });
    return doc ? toFileEntry(doc) : null;
  }

  async list(accountId: string, directoryId: string): Promise<FileEntry[]> {
    const docs = await this.files
      .find({ account_id: accountId, directory_id: directoryId, deleted_at: null })
      .sort({ created_at: -1, _id: -1 })
      .toArray();
    return docs.map(toFileEntry);
  }

  async markDeleted(accountId: string, directoryId: string, id: string, at: Date): Promise<FileEntry | null> {
    const doc = await this.files.findOneAndUpdate(
      { _id: id, account_id: accountId, directory_id: directoryId, deleted_at: null },
      { $set: { deleted_at: at } },
      { returnDocument: 'before' },
    );
    return doc ? toFileEntry(doc) : null;
  }

  async purge(id: string): Promise<void> {
    await this.files.deleteOne({ _id: id });
  }

  async listDeleted(before: Date, limit: number): Promise<FileEntry[]> {
    const docs = await this.files.find({ deleted_at: { $ne: null, $lte: before } }).limit(limit).toArray();
    return docs.map(toFileEntry);
  }

  async markUploadPublished(id: string): Promise<void> {
    await this.files.updateOne({ _id: id }, { $set: { upload_published: true } });
  }

  async listUnpublishedUploads(before: Date, limit: number): Promise<FileEntry[]> {
    const docs = await this.files
      .find({ upload_published: false, deleted_at: null, created_at: { $lte: before } })
      .sort({ created_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toFileEntry);
  }
}
