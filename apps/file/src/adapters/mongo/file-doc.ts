import type { FileEntry } from '../../domain/file-entry.js';

/**
 * Written once at upload; afterwards only the expiry lease holder sets expired_at and
 * expiry_done. The workflow state lives in `processing` (one writer per document).
 */
export interface FileDoc {
  _id: string;
  account_id: string;
  directory_id: string;
  directory_name: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  blob_token: string;
  object_key: string;
  user_id: string;
  created_at: Date;
  expired_at: Date | null;
  /** file.expired is out: the expiry job is done with this file. */
  expiry_done: boolean;
}

export const FILES = 'files';

export const toFileEntry = (d: FileDoc): FileEntry => ({
  id: d._id,
  accountId: d.account_id,
  directoryId: d.directory_id,
  directoryName: d.directory_name,
  filename: d.filename,
  contentType: d.content_type,
  size: d.size,
  sha256: d.sha256,
  blobToken: d.blob_token,
  objectKey: d.object_key,
  userId: d.user_id,
  createdAt: d.created_at,
  expiredAt: d.expired_at,
  processingState: 'unprocessed',
  claimedBy: null,
});

export const toFileDoc = (f: FileEntry): FileDoc => ({
  _id: f.id,
  account_id: f.accountId,
  directory_id: f.directoryId,
  directory_name: f.directoryName,
  filename: f.filename,
  content_type: f.contentType,
  size: f.size,
  sha256: f.sha256,
  blob_token: f.blobToken,
  object_key: f.objectKey,
  user_id: f.userId,
  created_at: f.createdAt,
  expired_at: f.expiredAt,
  expiry_done: false,
});
