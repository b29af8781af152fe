import type { Readable } from 'node:stream';
import type { Clock, Logger } from '@feedback/kit-core';
import type { Directory } from './directory.js';
import type { FileEntry, ProcessingOutcome, ProcessingState } from './file-entry.js';
import type { FileProcessing } from './processing.js';

/*
 * Rules that must hold under concurrency (one claim of a file per workflow, one expiry per entry)
 * are inserts of a record with a deterministic key (kit-stores insertOnce): atomic on MongoDB,
 * one round trip, and the record keeps who won (docs/decisions.md "File service").
 */

export interface DirectoryRepository {
  /** 'duplicate' when the account already has a directory of that name, also under races. */
  insert(directory: Directory): Promise<'created' | 'duplicate'>;
  findById(accountId: string, id: string): Promise<Directory | null>;
  list(accountId: string): Promise<Directory[]>;
  /** Adds or removes a workflow's file name on the directory (boundNames); idempotent. */
  setBound(directory: Directory, filename: string, bound: boolean): Promise<void>;
}

/**
 * File entries: written once; afterwards only the expiry lease holder updates one (expired_at),
 * and a workflow's report its `processing` (once).
 */
export interface FileRepository {
  insert(file: FileEntry): Promise<void>;
  findById(accountId: string, directoryId: string, id: string): Promise<FileEntry | null>;
  findAny(id: string): Promise<FileEntry | null>;
  findByBlobToken(blobToken: string): Promise<FileEntry | null>;
  /** Newest first. */
  list(accountId: string, directoryId: string): Promise<FileEntry[]>;
  /** Files of one name, unexpired and created after `notBefore`, newest first (created_at, then id). */
  listByName(q: { accountId: string; directoryId: string; filename: string; notBefore: Date }): Promise<FileEntry[]>;
  /** True for the one call that removed the entry. */
  remove(id: string): Promise<boolean>;
  /**
   * Sets a final `processing` unless the entry has one already, and marks its file.processed
   * event due in the same write: true for the one call that set it.
   */
  recordProcessing(id: string, processing: FileProcessing): Promise<boolean>;
  /** Entries whose file.processed is due, their outcome stored at or before `before`. */
  processedEventsDue(before: Date, limit: number): Promise<FileEntry[]>;
  processedEventSent(id: string): Promise<void>;
}

export interface ProcessingRecord {
  state: ProcessingState;
  claimedBy: string | null;
}

/** Workflow state, one record per file; a file without one is unprocessed. */
export interface ProcessingRepository {
  /** Records `state` for the file unless it has a record: true for exactly one caller per file. */
  mark(file: FileEntry, state: 'processing' | 'superseded', by: string, at: Date): Promise<boolean>;
  states(fileIds: string[]): Promise<Map<string, ProcessingRecord>>;
  /** processing (by `claimer`) → outcome; false when the file is not processing under that claimer. */
  complete(accountId: string, fileId: string, claimer: string, outcome: ProcessingOutcome, at: Date): Promise<boolean>;
}

/** The expiry job's per-file leases. */
export interface ExpiryRepository {
  /** Files created at or before `cutoff` whose expiry is not finished, oldest first. */
  listDue(cutoff: Date, limit: number): Promise<FileEntry[]>;
  /**
   * A lease id for exactly one caller, unless a lease of the file is running or finished. A
   * lease that ran out (its holder crashed) can be taken over, again by one caller only.
   */
  lease(fileId: string, holder: string, now: Date, until: Date): Promise<string | null>;
  /** Sets expired_at unless already set; null when the entry is gone (deleted meanwhile). */
  setExpired(id: string, at: Date): Promise<FileEntry | null>;
  finish(fileId: string, leaseId: string): Promise<void>;
}

/** Objects to remove unless a file entry owns them by then: makes upload and delete crash-safe. */
export interface ObjectSweepList {
  add(fileId: string, objectKey: string, notBefore: Date): Promise<void>;
  drop(fileId: string): Promise<void>;
  due(now: Date, limit: number): Promise<Array<{ fileId: string; objectKey: string }>>;
}

/** file.uploaded events not confirmed by Kafka yet. */
export interface UploadOutbox {
  add(fileId: string, at: Date): Promise<void>;
  drop(fileId: string): Promise<void>;
  due(before: Date, limit: number): Promise<string[]>;
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
  /** Aborts unfinished multipart uploads begun before `olderThan` (at most `limit`); answers how many. */
  abortStaleUploads(olderThan: Date, limit: number): Promise<number>;
}

export interface FileEvents {
  /** file.uploaded, event id `file.uploaded:<file id>`. */
  uploaded(file: FileEntry): Promise<void>;
  /** file.expired, event id `file.expired:<file id>`: a retry republishes the same id. */
  expired(file: FileEntry): Promise<void>;
  /** file.processed, event id `file.processed:<file id>`: the entry with its final `processing`. */
  processed(file: FileEntry): Promise<void>;
}

export interface FileServiceDeps {
  directories: DirectoryRepository;
  files: FileRepository;
  processing: ProcessingRepository;
  expiry: ExpiryRepository;
  sweepList: ObjectSweepList;
  outbox: UploadOutbox;
  blobs: BlobStore;
  events: FileEvents;
  clock: Clock;
  newId: () => string;
  newBlobToken: () => string;
  logger: Logger;
  maxUploadBytes: number;
  retentionMs: number;
}
