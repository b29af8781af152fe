import type { Readable } from 'node:stream';
import type { Logger } from '@feedback/kit-core';
import type { Directory } from './directory.js';
import type { FileEntry, ProcessingOutcome } from './file-entry.js';

export interface DirectoryRepository {
  /** 'duplicate' when the account already has a directory of that name, also under races. */
  insert(directory: Directory): Promise<'created' | 'duplicate'>;
  findById(accountId: string, id: string): Promise<Directory | null>;
  list(accountId: string): Promise<Directory[]>;
}

/** Live entries only: a deleted entry is invisible to every read. */
export interface FileRepository {
  insert(file: FileEntry): Promise<void>;
  findById(accountId: string, directoryId: string, id: string): Promise<FileEntry | null>;
  findByBlobToken(blobToken: string): Promise<FileEntry | null>;
  /** Newest first. */
  list(accountId: string, directoryId: string): Promise<FileEntry[]>;
  /** Hides the entry at once; answers it if it was live. purge() removes it for good. */
  markDeleted(accountId: string, directoryId: string, id: string, at: Date): Promise<FileEntry | null>;
  purge(id: string): Promise<void>;
  /** Entries marked deleted before `before` and not purged (a crash between the two steps). */
  listDeleted(before: Date, limit: number): Promise<FileEntry[]>;
  markUploadPublished(id: string): Promise<void>;
  /** Entries whose file.uploaded event has not been confirmed, created before `before`. */
  listUnpublishedUploads(before: Date, limit: number): Promise<FileEntry[]>;
}

/** Workflow claims; every method is one atomic single-document write (or a read). */
export interface ProcessingRepository {
  /** Moves the newest unprocessed, unexpired file of the name (created after `notBefore`) to processing. */
  claimNewestUnprocessed(q: { accountId: string; directoryId: string; filename: string; notBefore: Date }, claimer: string, at: Date): Promise<FileEntry | null>;
  /** Whether a live file of the same name is newer than `file` (created later, or same time and greater id). */
  hasNewer(file: FileEntry): Promise<boolean>;
  /** processing (by claimer) → superseded. */
  releaseAsSuperseded(file: FileEntry, claimer: string, at: Date): Promise<void>;
  /** Every unprocessed file of the same name older than `file` → superseded; answers how many. */
  supersedeOlder(file: FileEntry, at: Date): Promise<number>;
  /** processing (by claimer) → outcome; null when the file is not processing under that claimer. */
  complete(accountId: string, fileId: string, claimer: string, outcome: ProcessingOutcome, at: Date): Promise<FileEntry | null>;
  findAny(accountId: string, fileId: string): Promise<FileEntry | null>;
}

/** The expiry job's claims: a lease per file, so replicas never work on the same file at once. */
export interface ExpiryRepository {
  /** Leases one file created at or before `cutoff` whose expiry is not finished, unless another lease runs. */
  leaseDue(cutoff: Date, now: Date, leaseUntil: Date): Promise<FileEntry | null>;
  /** Sets expired_at unless already set (a retry keeps the first time); answers the entry. */
  setExpired(id: string, at: Date): Promise<FileEntry>;
  /** The file.expired event is out: the file is finished for the job. */
  finish(id: string): Promise<void>;
}

export interface StoredBlob {
  size: number;
}

export interface BlobStore {
  /** Streams `bytes` in; `size`, when given, is enforced. Fails (leaving nothing) if `bytes` errors. */
  put(key: string, bytes: Readable, opts: { size?: number; contentType: string }): Promise<StoredBlob>;
  /** The bytes (or a slice of them), or null when the object does not exist. */
  read(key: string, range?: { offset: number; length: number }): Promise<Readable | null>;
  /** Idempotent: removing a missing object succeeds. */
  remove(key: string): Promise<void>;
}

export interface FileEvents {
  /** file.uploaded, event id `file.uploaded:<file id>`. */
  uploaded(file: FileEntry): Promise<void>;
  /** file.expired, event id `file.expired:<file id>`: a retry republishes the same id. */
  expired(file: FileEntry): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export interface FileServiceDeps {
  directories: DirectoryRepository;
  files: FileRepository;
  processing: ProcessingRepository;
  expiry: ExpiryRepository;
  blobs: BlobStore;
  events: FileEvents;
  clock: Clock;
  newId: () => string;
  newBlobToken: () => string;
  logger: Logger;
  maxUploadBytes: number;
  retentionMs: number;
}
