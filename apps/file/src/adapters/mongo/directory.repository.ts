import type { Collection, Db } from 'mongodb';
import { insertOnce } from '@feedback/kit-stores';
import type { Directory } from '../../domain/directory.js';
import type { DirectoryRepository } from '../../domain/ports.js';

interface DirectoryDoc {
  _id: string;
  account_id: string;
  name: string;
  created_at: Date;
  /** Absent until a workflow binds a name. */
  bound_names?: string[];
}

const toDirectory = (d: DirectoryDoc): Directory => ({
  id: d._id,
  accountId: d.account_id,
  name: d.name,
  createdAt: d.created_at,
  boundNames: d.bound_names ?? [],
});

/** Name uniqueness per account is the unique index account_name (see indexes.ts), so races are settled by the server. */
export class MongoDirectoryRepository implements DirectoryRepository {
  private readonly directories: Collection<DirectoryDoc>;

  constructor(db: Db) {
    this.directories = db.collection<DirectoryDoc>('directories');
  }

  async insert(d: Directory): Promise<'created' | 'duplicate'> {
    const doc = { _id: d.id, account_id: d.accountId, name: d.name, created_at: d.createdAt };
    return (await insertOnce(this.directories, doc)) ? 'created' : 'duplicate';
  }

  async findById(accountId: string, id: string): Promise<Directory | null> {
    const doc = await this.directories.findOne({ _id: id, account_id: accountId });
    return doc ? toDirectory(doc) : null;
  }

  async setBound(d: Directory, filename: string, bound: boolean): Promise<void> {
    const update = bound ? { $addToSet: { bound_names: filename } } : { $pull: { bound_names: filename } };
    await this.directories.updateOne({ _id: d.id, account_id: d.accountId }, update);
  }

  async list(accountId: string): Promise<Directory[]> {
    const docs = await this.directories.find({ account_id: accountId }).sort({ name: 1 }).toArray();
    return docs.map(toDirectory);
  }
}
