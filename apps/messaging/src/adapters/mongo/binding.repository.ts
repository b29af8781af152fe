import { upsertAndRead } from '@feedback/kit-stores';
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

  async remove(b: Pick<DirectoryBinding, 'accountId' | 'campaignId' | 'directoryId' | 'fileName'>): Promise<boolean> {
    // The account and campaign in the filter: another campaign's binding of the same name stays.
    const res = await this.docs.deleteOne({
      directory_id: b.directoryId,
      file_name: b.fileName,
      account_id: b.accountId,
      campaign_id: b.campaignId,
    });
    return res.deletedCount === 1;
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
