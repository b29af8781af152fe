import type { FileEntry, ProcessingState } from '../../domain/file-entry.js';

/** One document per file: everything that must change together lives in it (no transactions on FerretDB). */
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
  deleted_at: Date | null;
  processing_state: ProcessingState;
  claimed_by: string | null;
  claimed_at: Date | null;
  completed_at: Date | null;
  /** file.uploaded confirmed by Kafka. */
  upload_published: boolean;
  /** The expiry job's lease (epoch when free) and its end mark (file.expired confirmed). */
  expiry_lease_until: Date;
  expiry_done: boolean;
}

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
  processingState: d.processing_state,
  claimedBy: d.claimed_by,
});

export function toFileDoc(f: FileEntry): FileDoc {
  return {
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
    deleted_at: null,
    processing_state: f.processingState,
    claimed_by: f.claimedBy,
    claimed_at: null,
    completed_at: null,
    upload_published: false,
    expiry_lease_until: new Date(0),
    expiry_done: false,
  };
}

export const FILES = 'files';
