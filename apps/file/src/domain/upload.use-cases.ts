import { pipeline, type Readable } from 'node:stream';
import { ByteMeter, tooLarge } from './byte-meter.js';
import { resolveContentType } from './content-type.js';
import { requireDirectory } from './directory.use-cases.js';
import type { FileEntry } from './file-entry.js';
import { sanitizeFilename } from './filename.js';
import type { FileServiceDeps } from './ports.js';
import { pendingProcessing } from './processing.js';

export interface UploadRequest {
  accountId: string;
  directoryId: string;
  /** Empty when it follows after the bytes (see UploadBody.trailerFilename). */
  filename: string;
  /** The client's own file name, only for guessing the content type. */
  originalFilename: string;
  contentType: string;
  size?: number;
  userId: string;
}

interface UploadBody {
  bytes: Readable;
  /** A filename sent after the bytes; wins over the request's. */
  trailerFilename(): string | undefined;
}

/** Longer than any upload may take: only then may the sweep remove an object no entry owns. */
export const UPLOAD_SWEEP_DELAY_MS = 6 * 60 * 60_000;

type Deps = Pick<
  FileServiceDeps,
  'directories' | 'files' | 'blobs' | 'events' | 'sweepList' | 'outbox' | 'clock' | 'newId' | 'newBlobToken' | 'logger' | 'maxUploadBytes'
>;

/**
 * Streams the bytes into the blob store and only then writes the entry, so a failed or
 * abandoned upload (source error, too large, bad name) leaves neither entry nor object. The
 * object is on the sweep list until the entry owns it, and the event in the outbox until Kafka
 * has it, so a crash at any point leaves nothing behind and loses no event. An insert whose
 * answer was lost is looked up before anything is removed: an entry never loses its object.
 */
export async function uploadFile(deps: Deps, req: UploadRequest, body: UploadBody): Promise<FileEntry> {
  try {
    if (req.size !== undefined && req.size > deps.maxUploadBytes) throw tooLarge(deps.maxUploadBytes);
    if (req.filename) sanitizeFilename(req.filename); // a bad name fails before any byte moves
    const directory = await requireDirectory(deps, req.accountId, req.directoryId);
    const id = deps.newId();
    const objectKey = `${req.accountId}/${id}`;
    await deps.sweepList.add(id, objectKey, new Date(deps.clock.now().getTime() + UPLOAD_SWEEP_DELAY_MS));
    const meter = new ByteMeter(deps.maxUploadBytes);
    pipeline(body.bytes, meter, () => undefined); // errors reach put() through the meter
    let file: FileEntry | undefined;
    let entry: EntryState = 'absent';
    try {
      const stored = await deps.blobs.put(objectKey, meter, { size: req.size, contentType: 'application/octet-stream' });
      const filename = sanitizeFilename(body.trailerFilename() || req.filename);
      file = {
        id,
        accountId: req.accountId,
        directoryId: directory.id,
        directoryName: directory.name,
        filename,
        contentType: resolveContentType(req.contentType, filename, req.originalFilename),
        size: stored.size,
        sha256: meter.sha256(),
        blobToken: deps.newBlobToken(),
        objectKey,
        userId: req.userId,
        createdAt: deps.clock.now(),
        expiredAt: null,
        processingState: 'unprocessed',
        claimedBy: null,
        processing: directory.boundNames?.includes(filename) ? pendingProcessing() : null,
      };
      await deps.outbox.add(id, file.createdAt);
      entry = 'unknown';
      await deps.files.insert(file);
      entry = 'stored';
    } catch (err) {
      // A failed insert may still have been stored (the database went away after the commit,
      // before the answer): then the entry owns the object and the upload succeeded.
      if (entry === 'unknown') entry = await entryAfterFailedInsert(deps, id);
      if (entry !== 'stored' || !file) {
        if (entry === 'absent') {
          await deps.outbox.drop(id).catch(() => undefined);
          await deps.blobs
            .remove(objectKey)
            .then(() => deps.sweepList.drop(id))
            .catch(() => undefined); // else the sweep does it
        }
        // Still unknown: the sweep removes the object only if no entry owns it, and the outbox
        // publishes file.uploaded only for an entry that exists.
        throw err;
      }
      deps.logger.warn({ err, file_id: id }, 'the file entry was stored although its insert failed');
    }
    await deps.sweepList.drop(id).catch(() => undefined); // the sweep would keep it anyway: an entry owns it
    await publishUploaded(deps, file, UPLOAD_PUBLISH_WAIT_MS);
    return file;
  } finally {
    if (!body.bytes.readableEnded) body.bytes.destroy();
  }
}

type EntryState = 'absent' | 'unknown' | 'stored';

async function entryAfterFailedInsert(deps: Pick<Deps, 'files'>, id: string): Promise<EntryState> {
  try {
    return (await deps.files.findAny(id)) ? 'stored' : 'absent';
  } catch {
    return 'unknown';
  }
}

/**
 * How long an upload's answer waits for its file.uploaded to reach Kafka. With Kafka away the
 * producer retries for half a minute; the entry is stored and the event is in the outbox, so the
 * caller gets its 201 now and the send goes on (or the sweep retries it).
 */
export const UPLOAD_PUBLISH_WAIT_MS = 2_000;

/** Best effort here; republishUploads() retries what did not go out, under the same event id. */
async function publishUploaded(deps: Pick<Deps, 'events' | 'outbox' | 'logger'>, file: FileEntry, waitMs = 0) {
  const sent = deps.events
    .uploaded(file)
    .then(() => deps.outbox.drop(file.id))
    .catch((err: unknown) => deps.logger.warn({ err, file_id: file.id }, 'file.uploaded not published yet; the sweep retries'));
  if (waitMs <= 0) return sent;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sent, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
  clearTimeout(timer);
}

/** Publishes file.uploaded for outbox entries older than `olderThanMs` (an upload's own try failed). */
export async function republishUploads(
  deps: Pick<Deps, 'events' | 'files' | 'outbox' | 'logger' | 'clock'>,
  olderThanMs = 60_000,
  limit = 100,
) {
  const due = await deps.outbox.due(new Date(deps.clock.now().getTime() - olderThanMs), limit);
  for (const fileId of due) {
    const file = await deps.files.findAny(fileId);
    if (file) await publishUploaded(deps, file);
    else await deps.outbox.drop(fileId); // the upload failed after its outbox entry
  }
  return due.length;
}
