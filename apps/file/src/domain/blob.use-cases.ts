import type { Readable } from 'node:stream';
import { errors } from '@feedback/kit-core';
import { resolveRange, type RangeRequest } from './byte-range.js';
import type { FileEntry } from './file-entry.js';
import { isBlobToken } from './ids.js';
import type { FileServiceDeps } from './ports.js';

interface OpenedBlob {
  file: FileEntry;
  /** null: the range lies outside the object. */
  range: { offset: number; length: number; partial: boolean } | null;
  /** null for info only, an unsatisfiable range or an empty slice. */
  bytes: Readable | null;
}

type Deps = Pick<FileServiceDeps, 'files' | 'blobs' | 'clock' | 'retentionMs'>;

function isPastRetention(file: FileEntry, now: Date, retentionMs: number): boolean {
  return file.expiredAt !== null || file.createdAt.getTime() + retentionMs <= now.getTime();
}

/**
 * The bytes behind a public blob URL. A file past its retention answers gone at once, even
 * before the expiry job has removed it, so the URL's lifetime does not depend on the job's pace.
 */
export async function openBlob(deps: Deps, blobToken: string, range: RangeRequest | undefined, infoOnly: boolean): Promise<OpenedBlob> {
  const file = isBlobToken(blobToken) ? await deps.files.findByBlobToken(blobToken) : null;
  if (!file) throw errors.notFound('blob_token', blobToken);
  if (isPastRetention(file, deps.clock.now(), deps.retentionMs)) throw errors.gone({ blob_token: 'the file has expired' });
  const resolved = resolveRange(file.size, range);
  if (resolved === 'not_satisfiable') return { file, range: null, bytes: null };
  if (infoOnly || resolved.length === 0) return { file, range: resolved, bytes: null };
  const bytes = await deps.blobs.read(file.objectKey, resolved.partial ? resolved : undefined);
  // The entry is live but its object is not: it is being expired or deleted right now.
  if (!bytes) throw errors.gone({ blob_token: 'the file is no longer available' });
  return { file, range: resolved, bytes };
}
