import { errors } from '@feedback/kit-core';
import { requireDirectory } from './directory.use-cases.js';
import type { FileEntry } from './file-entry.js';
import { isId, normalizeId } from './ids.js';
import type { FileServiceDeps } from './ports.js';

type Deps = Pick<FileServiceDeps, 'directories' | 'files' | 'processing' | 'sweepList' | 'blobs' | 'clock' | 'logger'>;

/** Entries with their workflow state (kept in records of its own; see ProcessingRepository). */
export async function withStates(deps: Pick<Deps, 'processing'>, files: FileEntry[]): Promise<FileEntry[]> {
  if (files.length === 0) return files;
  const states = await deps.processing.states(files.map((f) => f.id));
  return files.map((f) => {
    const record = states.get(f.id);
    return record ? { ...f, processingState: record.state, claimedBy: record.claimedBy } : f;
  });
}

export async function listFiles(deps: Deps, accountId: string, directoryId: string): Promise<FileEntry[]> {
  const directory = await requireDirectory(deps, accountId, directoryId);
  return withStates(deps, await deps.files.list(accountId, directory.id));
}

async function requireFile(deps: Deps, accountId: string, directoryId: string, fileId: string): Promise<FileEntry> {
  const directory = await requireDirectory(deps, accountId, directoryId);
  const file = isId(fileId) ? await deps.files.findById(accountId, directory.id, normalizeId(fileId)) : null;
  if (!file) throw errors.notFound('file_entry_id', fileId);
  return file;
}

export async function getFile(deps: Deps, accountId: string, directoryId: string, fileId: string): Promise<FileEntry> {
  const [file] = await withStates(deps, [await requireFile(deps, accountId, directoryId, fileId)]);
  return file!;
}

/**
 * Puts the object on the sweep list first, so it goes even if this process stops midway; then
 * removes the entry (from then on every read, the blob URL included, answers not found), then
 * the object. Of two concurrent deletes one answers the entry, the other not found.
 */
export async function deleteFile(deps: Deps, accountId: string, directoryId: string, fileId: string): Promise<FileEntry> {
  const file = await requireFile(deps, accountId, directoryId, fileId);
  await deps.sweepList.add(file.id, file.objectKey, deps.clock.now());
  if (!(await deps.files.remove(file.id))) throw errors.notFound('file_entry_id', fileId);
  try {
    await deps.blobs.remove(file.objectKey);
    await deps.sweepList.drop(file.id);
  } catch (err) {
    deps.logger.warn({ err, file_id: file.id }, 'entry removed, object not yet; the sweep removes it');
  }
  return file;
}

/**
 * Aborts multipart uploads older than `maxAgeMs`: a file service or S3 server that died midway
 * leaves its upload open, and the parts sent so far would stay in the bucket for ever. The age
 * must exceed the longest upload the gateway allows (its stream deadline).
 */
export async function sweepStaleUploads(deps: Pick<Deps, 'blobs' | 'clock'>, maxAgeMs: number, limit = 100): Promise<number> {
  return deps.blobs.abortStaleUploads(new Date(deps.clock.now().getTime() - maxAgeMs), limit);
}

/** Removes listed objects that no entry owns (an interrupted upload or delete). */
export async function sweepObjects(deps: Pick<Deps, 'files' | 'sweepList' | 'blobs' | 'clock'>, limit = 100): Promise<number> {
  const due = await deps.sweepList.due(deps.clock.now(), limit);
  for (const { fileId, objectKey } of due) {
    if (!(await deps.files.findAny(fileId))) await deps.blobs.remove(objectKey);
    await deps.sweepList.drop(fileId);
  }
  return due.length;
}
