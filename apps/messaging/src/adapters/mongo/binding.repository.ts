import { isDuplicateKeyError } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { DirectoryBinding } from '../../domain/directory-binding.js';
import type { BindingRepository } from '../../domain/ports.js';

interface BindingDoc {
  account_id: string;
  campaign_id: string;
  /** Unique together with file_name (indexes.ts): one binding per directory and name. */
  directory_id: string;
  file_name: string;
  created_at: Date;
  updated_at: Date;
}

export class MongoBindingRepository implements BindingRepository {
  private readonly docs: Collection<BindingDoc>;

  constructor(db: Db) {
    this.docs = db.collection<BindingDoc>('directory_bindings');
  }

  async upsert(b: DirectoryBinding): Promise<DirectoryBinding> {
    const update = () =>
      this.docs.findOneAndUpdate(
        { directory_id: b.directoryId, file_name: b.fileName },
        {
          $set: { account_id: b.accountId, campaign_id: b.campaignId, updated_at: b.updatedAt },
          $setOnInsert: { created_at: b.createdAt },
        },
        { upsert: true, returnDocument: 'after' },
      );
    let doc;
    try {
      doc = await update();
    } catch (err) {
      // Two first binds at once: the unique index lets one insert; the other updates it.
      if (!isDuplicateKeyError(err)) throw err;
      doc = await update();
    }
    // SecantusDB may answer an upsert that met a concurrent insert with the update applied and no document.
    doc ??= await this.docs.findOne({ directory_id: b.directoryId, file_name: b.fileName });
    if (!doc) throw new Error('upsert returned no document');
    return toBinding(doc);
  }

  async find(directoryId: string, fileName: string): Promise<DirectoryBinding | null> {
    const doc = await this.docs.findOne({ directory_id: directoryId, file_name: fileName });
    return doc ? toBinding(doc) : null;
  }
}

function toBinding(d: BindingDoc): DirectoryBinding {
  return {
    accountId: d.account_id,
    campaignId: d.campaign_id,
    directoryId: d.directory_id,
    fileName: d.file_name,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  };
}
