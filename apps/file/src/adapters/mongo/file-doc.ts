import type { FileEntry } from '../../domain/file-entry.js';
import type { FileProcessing } from '../../domain/processing.js';

/** FileProcessing as stored. */
export interface ProcessingDoc {
  status: FileProcessing['status'];
  sharing_id: string | null;
  rows: number;
  accepted: number;
  rejected: number;
  errors: Array<{ row: number; reason: string }>;
  reason: string | null;
  processed_at: Date | null;
}

/**
 * Written once at upload; afterwards only the expiry lease holder sets expired_at and
 * expiry_done, and a workflow's first report sets `processing` (a conditional update). The claim
 * state lives in the `processing` collection (one writer per document).
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
  /** Absent on entries stored before workflows reported (read as null). */
  processing?: ProcessingDoc | null;
  /** file.processed is not confirmed by Kafka yet (set with the outcome, unset once sent). */
  processed_event_due?: boolean;
}

export const toProcessingDoc = (p: FileProcessing): ProcessingDoc => ({
  status: p.status,
  sharing_id: p.sharingId,
  rows: p.rows,
  accepted: p.accepted,
  rejected: p.rejected,
  errors: p.errors,
  reason: p.reason,
  processed_at: p.processedAt,
});

const toProcessing = (d: ProcessingDoc): FileProcessing => ({
  status: d.status,
  sharingId: d.sharing_id,
  rows: d.rows,
  accepted: d.accepted,
  rejected: d.rejected,
  errors: d.errors,
  reason: d.reason,
  processedAt: d.processed_at,
});

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
  processing: d.processing ? toProcessing(d.processing) : null,
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
  processing: f.processing ? toProcessingDoc(f.processing) : null,
});
