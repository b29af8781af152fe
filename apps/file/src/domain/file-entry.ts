import type { FileProcessing } from './processing.js';

/**
 * Where a file stands in workflows (docs/api.md "Workflows on files"): the latest unprocessed file of a name is
 * claimed and processed; older unprocessed ones of that name are superseded by that claim.
 */
export type ProcessingState = 'unprocessed' | 'processing' | 'processed' | 'failed' | 'superseded';

export interface FileEntry {
  id: string;
  accountId: string;
  directoryId: string;
  /** Directories are never renamed, so the name is kept with the entry. */
  directoryName: string;
  filename: string;
  contentType: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  /** Unguessable (256 bits); names the bytes in the public URL. */
  blobToken: string;
  /** Unique per upload and never reused. */
  objectKey: string;
  /** The API token that uploaded the file. */
  userId: string;
  createdAt: Date;
  expiredAt: Date | null;
  processingState: ProcessingState;
  claimedBy: string | null;
  /** Set for an upload of a name a workflow is bound to (pending, then the outcome); null otherwise. */
  processing: FileProcessing | null;
}

export type ProcessingOutcome = 'processed' | 'failed';
