import { AppError } from '@feedback/kit-core';
import { requireDirectory } from './directory.use-cases.js';
import type { FileEntry, ProcessingOutcome } from './file-entry.js';
import { sanitizeFilename } from './filename.js';
import { isId, normalizeId } from './ids.js';
import type { FileServiceDeps } from './ports.js';

type Deps = Pick<FileServiceDeps, 'directories' | 'processing' | 'clock' | 'retentionMs'>;

export interface Claim {
  file: FileEntry | null;
  superseded: number;
}

/**
 * Spec 4.5: "the latest unprocessed file is processed; when no unprocessed file exists, the
 * workflow does not run". Without transactions, in single-document steps:
 * 1. atomically move the newest unprocessed file of the name to processing (one winner per file);
 * 2. if a newer file of that name exists (a racing claimer took it, or it arrived meanwhile),
 *    ours is not the latest: release it as superseded and try again;
 * 3. otherwise ours is the latest: supersede every older unprocessed file of the name.
 * Two racing claimers therefore never both run: the one holding an older file gives it up.
 */
export async function claimLatestFile(deps: Deps, accountId: string, directoryId: string, rawFilename: string, claimer: string): Promise<Claim> {
  if (!claimer) throw new AppError('invalid', undefined, { claimer: 'is required' });
  const directory = await requireDirectory(deps, accountId, directoryId);
  const filename = sanitizeFilename(rawFilename);
  let released = 0;
  for (;;) {
    const now = deps.clock.now();
    const notBefore = new Date(now.getTime() - deps.retentionMs);
    const file = await deps.processing.claimNewestUnprocessed({ accountId, directoryId: directory.id, filename, notBefore }, claimer, now);
    if (!file) return { file: null, superseded: released };
    if (await deps.processing.hasNewer(file)) {
      await deps.processing.releaseAsSuperseded(file, claimer, now);
      released++;
      continue;
    }
    const older = await deps.processing.supersedeOlder(file, now);
    return { file, superseded: released + older };
  }
}

export async function completeProcessing(
  deps: Pick<Deps, 'processing' | 'clock'>,
  accountId: string,
  fileId: string,
  claimer: string,
  outcome: ProcessingOutcome,
): Promise<FileEntry> {
  const id = isId(fileId) ? normalizeId(fileId) : null;
  const done = id ? await deps.processing.complete(accountId, id, claimer, outcome, deps.clock.now()) : null;
  if (done) return done;
  const file = id ? await deps.processing.findAny(accountId, id) : null;
  if (!file) throw new AppError('not_found', undefined, { file_id: fileId });
  throw new AppError('conflict', 'The file is not being processed by this claimer', { file_id: `is ${file.processingState}` });
}
