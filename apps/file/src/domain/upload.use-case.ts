import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import { ByteMeter, tooLarge } from './byte-meter.js';
import { resolveContentType } from './content-type.js';
import { requireDirectory } from './directory.use-cases.js';
import type { FileEntry } from './file-entry.js';
import { sanitizeFilename } from './filename.js';
import type { FileServiceDeps } from './ports.js';

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

export interface UploadBody {
  bytes: Readable;
  /** A filename sent after the bytes; wins over the request's. */
  trailerFilename(): string | undefined;
}

type Deps = Pick<FileServiceDeps, 'directories' | 'files' | 'blobs' | 'events' | 'clock' | 'newId' | 'newBlobToken' | 'logger' | 'maxUploadBytes'>;

/**
 * Streams the bytes into the blob store and only then writes the entry, so a failed or
 * abandoned upload (source error, too large, bad name) leaves neither entry nor object.
 */
export async function uploadFile(deps: Deps, req: UploadRequest, body: UploadBody): Promise<FileEntry> {
  try {
    if (req.size !== undefined && req.size > deps.maxUploadBytes) throw tooLarge(deps.maxUploadBytes);
    if (req.filename) sanitizeFilename(req.filename); // a bad name fails before any byte moves
    const directory = await requireDirectory(deps, req.accountId, req.directoryId);
    const id = deps.newId();
    const objectKey = `${req.accountId}/${id}`;
    const meter = new ByteMeter(deps.maxUploadBytes);
    pipeline(body.bytes, meter, () => undefined); // errors reach put() through the meter
    const stored = await deps.blobs.put(objectKey, meter, { size: req.size, contentType: 'application/octet-stream' });

    let filename: string;
    try {
      filename = sanitizeFilename(body.trailerFilename() || req.filename);
    } catch (err) {
      await deps.blobs.remove(objectKey);
      throw err;
    }
    const file: FileEntry = {
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
    };
    try {
      await deps.files.insert(file);
    } catch (err) {
      await deps.blobs.remove(objectKey).catch(() => undefined);
      throw err;
    }
    await publishUploaded(deps, file);
    return file;
  } finally {
    if (!body.bytes.readableEnded) body.bytes.destroy();
  }
}

/** Best effort here; republishUploads() retries what did not go out, under the same event id. */
async function publishUploaded(deps: Pick<Deps, 'events' | 'files' | 'logger'>, file: FileEntry) {
  try {
    await deps.events.uploaded(file);
    await deps.files.markUploadPublished(file.id);
  } catch (err) {
    deps.logger.warn({ err, file_id: file.id }, 'file.uploaded not published yet; the sweep retries');
  }
}

export async function republishUploads(deps: Pick<Deps, 'events' | 'files' | 'logger' | 'clock'>, olderThanMs = 60_000, limit = 100) {
  const pending = await deps.files.listUnpublishedUploads(new Date(deps.clock.now().getTime() - olderThanMs), limit);
  for (const file of pending) await publishUploaded(deps, file);
  return pending.length;
}
