import type { DirectoryBinding } from '../../domain/directory-binding.js';

/** Which file name of which directory, for which campaign of which account: what a binding and an import record share. */
export type BoundFile = Pick<DirectoryBinding, 'accountId' | 'campaignId' | 'directoryId' | 'fileName'>;

/** BoundFile as stored (directory_bindings, csv_imports). */
export interface BoundFileDoc {
  account_id: string;
  campaign_id: string;
  directory_id: string;
  file_name: string;
}

export const boundFileDoc = (f: BoundFile): BoundFileDoc => ({
  account_id: f.accountId,
  campaign_id: f.campaignId,
  directory_id: f.directoryId,
  file_name: f.fileName,
});

export const boundFile = (d: BoundFileDoc): BoundFile => ({
  accountId: d.account_id,
  campaignId: d.campaign_id,
  directoryId: d.directory_id,
  fileName: d.file_name,
});
