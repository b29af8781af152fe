import type { Collection, Db } from 'mongodb';
import type { FileEntry } from '../../domain/file-entry.js';
import type { ExpiryRepository } from '../../domain/ports.js';
import { FILES, toFileEntry, type FileDoc } from './file-doc.js';

export class MongoExpiryRepository implements ExpiryRepository {
  private readonly files: Collection<FileDoc>;

  constructor(db: Db) {
    this.files = db.collection<FileDoc>(FILES);
  }

  /** The lease is the claim: findOneAndUpdate is atomic per document, so one replica wins each file. */
  async leaseDue(cutoff: Date, now: Date, leaseUntil: Date): Promise<FileEntry | null> {
    const doc = await this.files.findOneAndUpdate(
      { expiry_done: false, deleted_at: null, created_at: { $lte: cutoff }, expiry_lease_until: { $lte: now } },
      { $set: { expiry_lease_until: leaseUntil } },
      { sort: { created_at: 1 }, returnDocument: 'after' },
    );
    return doc ? toFileEntry(doc) : null;
  }

  async setExpired(id: string, at: Date): Promise<FileEntry> {
    await this.files.updateOne({ _id: id, expired_at: null }, { $set: { expired_at: at } });
    const doc = await this.files.findOne({ _id: id });
    if (!doc) throw new Error(`file ${id} vanished while expiring`);
    return toFileEntry(doc);
  }

  async finish(id: string): Promise<void> {
    await this.files.updateOne({ _id: id }, { $set: { expiry_done: true, expiry_lease_until: new Date(0) } });
  }
}
