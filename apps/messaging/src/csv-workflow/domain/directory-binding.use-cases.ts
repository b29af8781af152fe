import { errors } from '@feedback/kit-core';
import { DEFAULT_BOUND_FILE_NAME, type DirectoryBinding } from './directory-binding.js';
import type { CsvWorkflowDeps } from '../ports.js';

type Deps = Pick<CsvWorkflowDeps, 'campaigns' | 'bindings' | 'files' | 'clock'>;

export interface BindCommand {
  accountId: string;
  campaignId: string;
  directoryId: string;
  /** Empty or absent: customers.csv. */
  fileName?: string;
}

/**
 * Binds a directory's file name to a campaign. The campaign and the directory must both be the
 * account's own (a foreign one reads as missing), so a binding can never read another account's
 * files. Binding the same directory and name again moves it to the new campaign.
 */
export async function bindDirectory(deps: Deps, cmd: BindCommand): Promise<DirectoryBinding> {
  const fileName = boundFileName(cmd.fileName);
  if (!cmd.directoryId) throw errors.invalid({ directory_id: 'is required' });
  const campaign = await ownCampaign(deps, cmd.accountId, cmd.campaignId);
  if (!(await deps.files.directoryExists(cmd.accountId, cmd.directoryId))) throw errors.notFound('directory_id', cmd.directoryId);
  const now = deps.clock.now();
  const binding = await deps.bindings.upsert({
    accountId: cmd.accountId,
    campaignId: campaign.id,
    directoryId: cmd.directoryId,
    fileName,
    createdAt: now,
    updatedAt: now,
  });
  // After the binding is stored: should this fail, uploads are still processed (their entries
  // show the outcome once reported, not pending before), and binding again completes it.
  await deps.files.setBound({ accountId: cmd.accountId, directoryId: cmd.directoryId, filename: fileName, bound: true });
  return binding;
}

/** The campaign's bindings, newest first; another account's campaign reads as missing. */
export async function listBindings(
  deps: Pick<Deps, 'campaigns' | 'bindings'>,
  q: { accountId: string; campaignId: string },
): Promise<DirectoryBinding[]> {
  const campaign = await ownCampaign(deps, q.accountId, q.campaignId);
  return deps.bindings.listByCampaign(q.accountId, campaign.id);
}

/** Unbinds a directory's file name from the campaign: later uploads of it make no sharing. */
export async function unbindDirectory(deps: Pick<Deps, 'campaigns' | 'bindings' | 'files'>, cmd: BindCommand): Promise<void> {
  const fileName = boundFileName(cmd.fileName);
  const campaign = await ownCampaign(deps, cmd.accountId, cmd.campaignId);
  const removed = await deps.bindings.remove({ accountId: cmd.accountId, campaignId: campaign.id, directoryId: cmd.directoryId, fileName });
  if (!removed) throw errors.notFound('directory_id', cmd.directoryId);
  await deps.files.setBound({ accountId: cmd.accountId, directoryId: cmd.directoryId, filename: fileName, bound: false });
}

/** Empty or absent: customers.csv. The file service's own rules (sanitizeFilename) decide the rest when a file arrives. */
function boundFileName(given: string | undefined): string {
  const fileName = (given ?? '').trim() || DEFAULT_BOUND_FILE_NAME;
  if (fileName.length > 255 || /[/\\\p{Cc}]/u.test(fileName) || fileName === '.' || fileName === '..') {
    throw errors.invalid({ file_name: 'must be a file name of at most 255 characters, without path separators or control characters' });
  }
  return fileName;
}

async function ownCampaign(deps: Pick<Deps, 'campaigns'>, accountId: string, campaignId: string) {
  const campaign = await deps.campaigns.findById(accountId, campaignId);
  if (!campaign) throw errors.notFound('campaign_id', campaignId);
  return campaign;
}
