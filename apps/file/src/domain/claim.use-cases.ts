import { errors } from '@feedback/kit-core';
import { requireDirectory } from './directory.use-cases.js';
import type { FileEntry, ProcessingOutcome } from './file-entry.js';
import { withStates } from './file.use-cases.js';
import { sanitizeFilename } from './filename.js';
import { isId, normalizeId } from './ids.js';
import type { FileServiceDeps } from './ports.js';
import { pendingProcessing, type ProcessingReport } from './processing.js';
import { recordProcessing, SUPERSEDED_REASON } from './workflow.use-cases.js';

const supersededReport: ProcessingReport = { ...pendingProcessing(), status: 'failed', reason: SUPERSEDED_REASON };

type Deps = Pick<FileServiceDeps, 'directories' | 'files' | 'processing' | 'events' | 'clock' | 'logger' | 'retentionMs'>;

interface Claim {
  file: FileEntry | null;
  superseded: number;
}

/** A claim loses a race at most once per newer upload; this bounds a pathological loop. */
const MAX_ROUNDS = 10;

/**
 * The workflow rule (docs/api.md "Workflows on files"): the latest unprocessed file of a name is processed;
 * with no unprocessed file the workflow does not run. The newest live file of the name decides:
 * - it has a processing record (claimed, done or superseded): nothing to run;
 * - it has none: record it as processing, which succeeds for exactly one caller (an insert
 *   against its id); the loser looks again and finds it claimed.
 * Either way every older file of the name without a record is recorded as superseded (again one
 * insert per file, so racing claimers agree). A file uploaded meanwhile is newer, hence the next
 * claim's to process.
 */
export async function claimLatestFile(
  deps: Deps,
  accountId: string,
  directoryId: string,
  rawFilename: string,
  claimer: string,
): Promise<Claim> {
  if (!claimer) throw errors.invalid({ claimer: 'is required' });
  const directory = await requireDirectory(deps, accountId, directoryId);
  const filename = sanitizeFilename(rawFilename);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = deps.clock.now();
    const notBefore = new Date(now.getTime() - deps.retentionMs);
    const files = await deps.files.listByName({ accountId, directoryId: directory.id, filename, notBefore });
    const [latest, ...older] = files;
    if (!latest) return { file: null, superseded: 0 };
    const states = await deps.processing.states(files.map((f) => f.id));
    const won = !states.has(latest.id) && (await deps.processing.mark(latest, 'processing', claimer, now));
    if (!states.has(latest.id) && !won) continue; // another claimer took it: look again
    let superseded = 0;
    for (const file of older) {
      if (!states.has(file.id) && (await deps.processing.mark(file, 'superseded', latest.id, now))) {
        superseded++;
        // A bound name's file shows pending until reported: it never will be, so it ends failed.
        if (file.processing?.status === 'pending') await recordProcessing(deps, file.accountId, file.id, supersededReport);
      }
    }
    return { file: won ? { ...latest, processingState: 'processing', claimedBy: claimer } : null, superseded };
  }
  throw errors.unavailable('Too many concurrent claims; try again');
}

export async function completeProcessing(
  deps: Pick<Deps, 'files' | 'processing' | 'clock'>,
  accountId: string,
  fileId: string,
  claimer: string,
  outcome: ProcessingOutcome,
): Promise<FileEntry> {
  const id = isId(fileId) ? normalizeId(fileId) : null;
  const file = id ? await deps.files.findAny(id) : null;
  if (!file || file.accountId !== accountId) throw errors.notFound('file_id', fileId);
  if (!(await deps.processing.complete(accountId, file.id, claimer, outcome, deps.clock.now()))) {
    const [current] = await withStates(deps, [file]);
    throw errors.conflict({ file_id: `is ${current!.processingState}` }, 'The file is not being processed by this claimer');
  }
  const [done] = await withStates(deps, [file]);
  return done!;
}
