/**
 * A file-service directory's file name bound to an SMS campaign (docs/api.md "Workflows on files"): every
 * upload of that name into the directory makes a sharing from the latest unprocessed file.
 */
export interface DirectoryBinding {
  accountId: string;
  campaignId: string;
  directoryId: string;
  fileName: string;
  createdAt: Date;
  updatedAt: Date;
}

export const DEFAULT_BOUND_FILE_NAME = 'customers.csv';

/** How one bound file ended; kept in messaging's database (CompleteProcessing carries no reason). */
export interface CsvImport {
  fileId: string;
  accountId: string;
  directoryId: string;
  fileName: string;
  campaignId: string;
  /** Also the claimer of the file; null when no sharing was made. */
  sharingId: string | null;
  outcome: 'processed' | 'failed';
  reason: string | null;
  /** Data rows read (header excluded). */
  rows: number;
  accepted: number;
  rejected: number;
  /** The first 100 refused rows (line and reason), as the file's entry shows them. */
  errors: Array<{ row: number; reason: string }>;
  /** Older unprocessed files of the name that this claim superseded. */
  superseded: number;
  createdAt: Date;
}
