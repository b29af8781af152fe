import { errors } from '@feedback/kit-core';
import {
  ProcessingOutcome as OutcomeMessage,
  ProcessingState as StateMessage,
  type Directory as DirectoryMessage,
  type File as FileMessage,
} from '@feedback/proto/feedback/file/v1/file';
import type { Directory } from '../domain/directory.js';
import type { FileEntry, ProcessingOutcome, ProcessingState } from '../domain/file-entry.js';

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
  };
}

export function outcomeOf(outcome: OutcomeMessage): ProcessingOutcome {
  if (outcome === OutcomeMessage.PROCESSING_OUTCOME_PROCESSED) return 'processed';
  if (outcome === OutcomeMessage.PROCESSING_OUTCOME_FAILED) return 'failed';
  throw errors.invalid({ outcome: 'must be processed or failed' });
}
