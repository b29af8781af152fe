import type { Clock, Logger } from '@feedback/kit-core';
import type { CampaignRepository } from '../campaigns/ports.js';
import type { CsvRecord } from './domain/customer-csv.js';
import type { CsvImport, DirectoryBinding } from './domain/directory-binding.js';
import type { IntakeDeps } from '../intake/ports.js';
import type { MessagingSettings } from '../shared/ports.js';

export interface BindingRepository {
  /** One binding per directory and file name: a second bind replaces the campaign. */
  upsert(b: DirectoryBinding): Promise<DirectoryBinding>;
  find(directoryId: string, fileName: string): Promise<DirectoryBinding | null>;
  /** The campaign's bindings, newest first. */
  listByCampaign(accountId: string, campaignId: string): Promise<DirectoryBinding[]>;
  /** Removes the campaign's binding of the directory and name; false when it has none. */
  remove(b: Pick<DirectoryBinding, 'accountId' | 'campaignId' | 'directoryId' | 'fileName'>): Promise<boolean>;
}

export interface CsvImportLog {
  /** Once per file; a repeat keeps the first record. */
  record(i: CsvImport): Promise<void>;
  findByFile(fileId: string): Promise<CsvImport | null>;
}

/** A file claimed for a workflow. */
export interface ClaimedFile {
  id: string;
  accountId: string;
  directoryId: string;
  filename: string;
  blobToken: string;
  size: number;
}

/** What the workflow made of a file, as the file service shows it on the entry (docs/api.md "Workflows on files"). */
export interface FileOutcome {
  status: 'processed' | 'failed';
  sharingId: string | null;
  rows: number;
  accepted: number;
  rejected: number;
  /** The first 100 refused rows: line and reason, never a cell's content. */
  errors: Array<{ row: number; reason: string }>;
  reason: string | null;
}

/** The file service, as the CSV workflow needs it. */
export interface WorkflowFiles {
  directoryExists(accountId: string, directoryId: string): Promise<boolean>;
  /** The latest unprocessed file of the name, claimed for `claimer`; null when none (docs/api.md "Workflows on files"). */
  claimLatest(q: {
    accountId: string;
    directoryId: string;
    filename: string;
    claimer: string;
  }): Promise<{ file: ClaimedFile | null; superseded: number }>;
  /** The file's CSV records, streamed; a file that is not CSV throws CsvFormatError. */
  records(file: ClaimedFile): AsyncIterable<CsvRecord>;
  complete(q: { accountId: string; fileId: string; claimer: string; outcome: 'processed' | 'failed' }): Promise<void>;
  /** Marks the name as bound (or not) in the file service: its uploads show `processing` pending from the start. */
  setBound(q: { accountId: string; directoryId: string; filename: string; bound: boolean }): Promise<void>;
  /** The outcome onto the file's entry (RecordProcessing); the first one stands, a repeat changes nothing. */
  recordOutcome(q: { accountId: string; fileId: string; outcome: FileOutcome }): Promise<void>;
}

/** What the directory bindings and the CSV workflow are given (wiring.ts builds it). */
export interface CsvWorkflowDeps {
  campaigns: CampaignRepository;
  bindings: BindingRepository;
  imports: CsvImportLog;
  files: WorkflowFiles;
  clock: Clock;
  newId: () => string;
  logger: Logger;
  settings: MessagingSettings;
  /** A processed file's sharing goes through the API's own use case (sharing.use-cases.ts). */
  intake: IntakeDeps;
}
