import { errors } from '@feedback/kit-core';
import { requireDirectory } from './directory.use-cases.js';
import type { FileEntry } from './file-entry.js';
import { withStates } from './file.use-cases.js';
import { sanitizeFilename } from './filename.js';
import { isId, normalizeId } from './ids.js';
import type { FileServiceDeps } from './ports.js';
import { finalProcessing, type ProcessingReport } from './processing.js';

type Deps = Pick<FileServiceDeps, 'directories' | 'files' | 'processing' | 'events' | 'clock' | 'logger'>;

/** How long a report's answer waits for its file.processed to reach Kafka; the maintenance job sends the rest. */
const PUBLISH_WAIT_MS = 2_000;

/**
 * A workflow binds a directory's file name (messaging's BindDirectory): later uploads of that
 * name show `processing: pending` from the moment they are stored. Idempotent both ways.
 */
export async function setWorkflowBinding(
  deps: Pick<Deps, 'directories'>,
  q: { accountId: string; directoryId: string; filename: string; bound: boolean },
): Promise<void> {
  const directory = await requireDirectory(deps, q.accountId, q.directoryId);
  await deps.directories.setBound(directory, sanitizeFilename(q.filename), q.bound);
}

/**
 * Stores a workflow's outcome on the entry and publishes file.processed for the one call that
 * stored it (the entry carries the event as due until Kafka has it, so a crash loses none). The
 * first outcome stands: a redelivered or later report changes nothing and answers the entry.
 */
export async function recordProcessing(
  deps: Pick<Deps, 'files' | 'processing' | 'events' | 'clock' | 'logger'>,
  accountId: string,
  fileId: string,
  report: ProcessingReport,
): Promise<FileEntry> {
  const id = isId(fileId) ? normalizeId(fileId) : null;
  const file = id ? await deps.files.findAny(id) : null;
  if (!file || file.accountId !== accountId) throw errors.notFound('file_id', fileId);
  const stored = await deps.files.recordProcessing(file.id, finalProcessing(report, deps.clock.now()));
  const [current] = await withStates(deps, [(await deps.files.findAny(file.id)) ?? file]);
  if (stored) await publishProcessed(deps, current!, PUBLISH_WAIT_MS);
  return current!;
}

/** Best effort here; republishProcessed() retries what did not go out, under the same event id. */
async function publishProcessed(deps: Pick<Deps, 'files' | 'events' | 'logger'>, file: FileEntry, waitMs = 0): Promise<void> {
  const sent = deps.events
    .processed(file)
    .then(() => deps.files.processedEventSent(file.id))
    .catch((err: unknown) => deps.logger.warn({ err, file_id: file.id }, 'file.processed not published yet; maintenance retries'));
  if (waitMs <= 0) return sent;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sent, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
  clearTimeout(timer);
}

/** Publishes file.processed for entries whose outcome was stored over `olderThanMs` ago and whose event is still due. */
export async function republishProcessed(deps: Pick<Deps, 'files' | 'events' | 'logger' | 'clock'>, olderThanMs = 60_000, limit = 100) {
  const due = await deps.files.processedEventsDue(new Date(deps.clock.now().getTime() - olderThanMs), limit);
  for (const file of due) await publishProcessed(deps, file);
  return due.length;
}

/** Why a superseded file of a bound name ends failed: it will never be processed. */
export const SUPERSEDED_REASON = 'superseded: a newer upload of the same name was processed instead';
