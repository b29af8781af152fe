import type { Collection, Db } from 'mongodb';
import { insertOnce } from '@feedback/kit-stores';
import type { FileEntry } from '../../domain/file-entry.js';
import type { ExpiryRepository } from '../../domain/ports.js';
import { FILES, toFileEntry, type FileDoc } from './file-doc.js';

interface LeaseDoc {
  /** `<file id>:<attempt>`: the insert of an attempt is the claim, so one replica wins each. */
  _id: string;
  file_id: string;
  attempt: number;
  holder: string;
  until: Date;
  done: boolean;
}

export class MongoExpiryRepository implements ExpiryRepository {
  private readonly files: Collection<FileDoc>;
  private readonly leases: Collection<LeaseDoc>;

  constructor(db: Db) {
    this.files = db.collection<FileDoc>(FILES);
    this.leases = db.collection<LeaseDoc>('expiry_leases');
  }

  async listDue(cutoff: Date, limit: number): Promise<FileEntry[]> {
    const docs = await this.files
      .find({ expiry_done: false, created_at: { $lte: cutoff } })
      .sort({ created_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toFileEntry);
  }

  async lease(fileId: string, holder: string, now: Date, until: Date): Promise<string | null> {
    const latest = await this.leases.find({ file_id: fileId }).sort({ attempt: -1 }).limit(1).next();
    if (latest && (latest.done || latest.until > now)) return null;
    const attempt = (latest?.attempt ?? 0) + 1;
    const _id = `${fileId}:${attempt}`;
    return (await insertOnce(this.leases, { _id, file_id: fileId, attempt, holder, until, done: false })) ? _id : null;
  }

  async setExpired(id: string, at: Date): Promise<FileEntry | null> {
    await this.files.updateOne({ _id: id, expired_at: null }, { $set: { expired_at: at } });
    const doc = await this.files.findOne({ _id: id });
    return doc ? toFileEntry(doc) : null;
  }

  async finish(fileId: string, leaseId: string): Promise<void> {
    await this.files.updateOne({ _id: fileId }, { $set: { expiry_done: true } });
    await this.leases.updateOne({ _id: leaseId }, { $set: { done: true } });
  }
}
