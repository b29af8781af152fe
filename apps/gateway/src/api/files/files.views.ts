import { isoWithOffset } from '@feedback/kit-core';
import { FileProcessingStatus, type Directory, type File, type FileProcessing } from '@feedback/proto/feedback/file/v1/file';

const iso = (s: string) => isoWithOffset(new Date(s));

export const directoryView = (d: Directory | undefined) => {
  if (!d) throw new Error('file service answered without a directory');
  return { id: d.id, object: 'file_service::directory' as const, name: d.name, created_at: iso(d.createdAt) };
};

/** Public blob URL: /public/v2/storage/blobs/<blob_token>/<filename> under the API's public base. */
export function blobUrl(publicBaseUrl: string, f: Pick<File, 'blobToken' | 'filename'>): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/public/v2/storage/blobs/${f.blobToken}/${encodeURIComponent(f.filename)}`;
}

export const fileView = (publicBaseUrl: string) => (f: File | undefined) => {
  if (!f) throw new Error('file service answered without a file');
  const url = blobUrl(publicBaseUrl, f);
  return {
    id: f.id,
    object: 'file_service::file' as const,
    filename: f.filename,
    url,
    proxy_url: url,
    directory: f.directoryName,
    directory_id: f.directoryId,
    user_id: f.userId,
    created_at: iso(f.createdAt),
    expired_at: f.expiredAt ? iso(f.expiredAt) : null,
    processing: f.processing ? processingView(f.processing) : null,
  };
};

const STATUSES: Record<number, 'pending' | 'processed' | 'failed'> = {
  [FileProcessingStatus.FILE_PROCESSING_STATUS_PENDING]: 'pending',
  [FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED]: 'processed',
  [FileProcessingStatus.FILE_PROCESSING_STATUS_FAILED]: 'failed',
};

/** A bound file's processing (docs/api.md "Workflows on files"). */
export const processingView = (p: FileProcessing) => ({
  status: STATUSES[p.status] ?? 'pending',
  sharing_id: p.sharingId || null,
  rows: p.rows,
  accepted: p.accepted,
  rejected: p.rejected,
  errors: p.errors.map((e) => ({ row: e.row, reason: e.reason })),
  reason: p.reason || null,
  processed_at: p.processedAt ? iso(p.processedAt) : null,
});

export const envelope = <T extends { object: string }>(url: string, data: T) => ({ object: data.object, url, data });
export const collection = <T>(url: string, data: T[]) => ({ object: 'collection' as const, url, data });

/** Ids in the echoed URL path as the caller sent them, but never anything that is not an id. */
export const pathId = (id: string) => encodeURIComponent(id);
