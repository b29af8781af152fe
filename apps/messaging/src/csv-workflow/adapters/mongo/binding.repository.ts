import { upsertAndRead } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { DirectoryBinding } from '../../domain/directory-binding.js';
import type { BindingRepository } from '../../ports.js';
import { boundFile, boundFileDoc, type BoundFile, type BoundFileDoc } from './bound-file.doc.js';

/** directory_id and file_name are unique together (indexes.ts): one binding per directory and name. */
interface BindingDoc extends BoundFileDoc {
  created_at: Date;
  updated_at: Date;
}

export class MongoBindingRepository implements BindingRepository {
  private readonly docs: Collection<BindingDoc>;

  constructor(db: Db) {
    this.docs = db.collection<BindingDoc>('directory_bindings');
  }

  async upsert(b: DirectoryBinding): Promise<DirectoryBinding> {
    // Two first binds at once, or SecantusDB's upsert without a document: kit-stores handles both.
    const doc = await upsertAndRead(
      this.docs,
      { directory_id: b.directoryId, file_name: b.fileName },
      { $set: { account_id: b.accountId, campaign_id: b.campaignId, updated_at: b.updatedAt }, $setOnInsert: { created_at: b.createdAt } },
    );
    return toBinding(doc);
  }

  async find(directoryId: string, fileName: string): Promise<DirectoryBinding | null> {
    const doc = await this.docs.findOne({ directory_id: directoryId, file_name: fileName });
    return doc ? toBinding(doc) : null;
  }

  async listByCampaign(accountId: string, campaignId: string): Promise<DirectoryBinding[]> {
    const docs = await this.docs.find({ account_id: accountId, campaign_id: campaignId }).sort({ updated_at: -1 }).limit(1_000).toArray();
    return docs.map(toBinding);
  }

  async remove(b: BoundFile): Promise<boolean> {
    // The account and campaign in the filter: another campaign's binding of the same name stays.
    const res = await this.docs.deleteOne(boundFileDoc(b));
    return res.deletedCount === 1;
  }
}

function toBinding(d: BindingDoc): DirectoryBinding {
  return { ...boundFile(d), createdAt: d.created_at, updatedAt: d.updated_at };
}
