import { AppError } from '@feedback/kit-core';
import { requireDirectory } from './directory.use-cases.js';
import type { FileEntry } from './file-entry.js';
import { isId, normalizeId } from './ids.js';
import type { FileServiceDeps } from './ports.js';

type Deps = Pick<FileServiceDeps, 'directories' | 'files' | 'blobs' | 'clock' | 'logger'>;

export async function listFiles(deps: Deps, accountId: string, directoryId: string): Promise<FileEntry[]> {
  const directory = await requireDirectory(deps, accountId, directoryId);
  return deps.files.list(accountId, directory.id);
}

export async function getFile(deps: Deps, accountId: string, directoryId: string, fileId: string): Promise<FileEntry> {
  const directory = await requireDirectory(deps, accountId, directoryId);
  const file = isId(fileId) ? await deps.files.findById(accountId, directory.id, normalizeId(fileId)) : null;
  if (!file) throw new AppError('not_found', undefined, { file_entry_id: fileId });
  return file;
}

/**
 * Hides the entry first (one write: from then on every read, the blob URL included, answers
 * not found), then removes the bytes and the entry. A crash in between leaves a hidden entry
 * that sweepDeleted() finishes.
 */
export async function deleteFile(deps: Deps, accountId: string, directoryId: string, fileId: string): Promise<FileEntry> {
  const directory = await requireDirectory(deps, accountId, directoryId);
  const file = isId(fileId) ? await deps.files.markDeleted(accountId, directory.id, normalizeId(fileId), deps.clock.now()) : null;
  if (!file) throw new AppError('not_found', undefined, { file_entry_id: fileId });
  try {
    await deps.blobs.remove(file.objectKey);
    await deps.files.purge(file.id);
  } catch (err) {
    deps.logger.warn({ err, file_id: file.id }, 'file hidden but not yet removed; the sweep will finish it');
  }
  return file;
}

/** Finishes deletions a crash interrupted. */
export async function sweepDeleted(deps: Deps, olderThanMs = 60_000, limit = 100): Promise<number> {
  const stale = await deps.files.listDeleted(new Date(deps.clock.now().getTime() - olderThanMs), limit);
  for (const file of stale) {
    await deps.blobs.remove(file.objectKey);
    await deps.files.purge(file.id);
  }
  return stale.length;
}
