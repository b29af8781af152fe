import { errors } from '@feedback/kit-core';
import {
  FileProcessingStatus as StatusMessage,
  ProcessingOutcome as OutcomeMessage,
  type FileProcessing as ProcessingMessage,
  ProcessingState as StateMessage,
  type Directory as DirectoryMessage,
  type File as FileMessage,
} from '@feedback/proto/feedback/file/v1/file';
import type { Directory } from '../domain/directory.js';
import type { FileEntry, ProcessingOutcome, ProcessingState } from '../domain/file-entry.js';
import type { FileProcessing, ProcessingReport } from '../domain/processing.js';

const STATES: Record<ProcessingState, StateMessage> = {
  unprocessed: StateMessage.PROCESSING_STATE_UNPROCESSED,
  processing: StateMessage.PROCESSING_STATE_PROCESSING,
  processed: StateMessage.PROCESSING_STATE_PROCESSED,
  failed: StateMessage.PROCESSING_STATE_FAILED,
  superseded: StateMessage.PROCESSING_STATE_SUPERSEDED,
};

export const directoryMessage = (d: Directory): DirectoryMessage => ({
  id: d.id,
  accountId: d.accountId,
  name: d.name,
  createdAt: d.createdAt.toISOString(),
});

export function fileMessage(f: FileEntry): FileMessage {
  return {
    id: f.id,
    accountId: f.accountId,
    directoryId: f.directoryId,
    directoryName: f.directoryName,
    filename: f.filename,
    contentType: f.contentType,
    size: f.size,
    sha256: f.sha256,
    blobToken: f.blobToken,
    userId: f.userId,
    createdAt: f.createdAt.toISOString(),
    ...(f.expiredAt ? { expiredAt: f.expiredAt.toISOString() } : {}),
    processingState: STATES[f.processingState],
    ...(f.processing ? { processing: processingMessage(f.processing) } : {}),
  };
}

const STATUSES: Record<FileProcessing['status'], StatusMessage> = {
  pending: StatusMessage.FILE_PROCESSING_STATUS_PENDING,
  processed: StatusMessage.FILE_PROCESSING_STATUS_PROCESSED,
  failed: StatusMessage.FILE_PROCESSING_STATUS_FAILED,
};

const processingMessage = (p: FileProcessing): ProcessingMessage => ({
  status: STATUSES[p.status],
  sharingId: p.sharingId ?? '',
  rows: p.rows,
  accepted: p.accepted,
  rejected: p.rejected,
  errors: p.errors,
  reason: p.reason ?? '',
  processedAt: p.processedAt?.toISOString() ?? '',
});

/** A RecordProcessing report; the status is checked by the use case (processed or failed only). */
export function reportOf(p: ProcessingMessage | undefined): ProcessingReport {
  if (!p) throw errors.invalid({ processing: 'is required' });
  const status =
    p.status === StatusMessage.FILE_PROCESSING_STATUS_PROCESSED
      ? 'processed'
      : p.status === StatusMessage.FILE_PROCESSING_STATUS_FAILED
        ? 'failed'
        : 'pending';
  return {
    status,
    sharingId: p.sharingId || null,
    rows: p.rows,
    accepted: p.accepted,
    rejected: p.rejected,
    errors: p.errors.map((e) => ({ row: e.row, reason: e.reason })),
    reason: p.reason || null,
  };
}

export function outcomeOf(outcome: OutcomeMessage): ProcessingOutcome {
  if (outcome === OutcomeMessage.PROCESSING_OUTCOME_PROCESSED) return 'processed';
  if (outcome === OutcomeMessage.PROCESSING_OUTCOME_FAILED) return 'failed';
  throw errors.invalid({ outcome: 'must be processed or failed' });
}
