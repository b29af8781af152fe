import { randomBytes, randomUUID } from 'node:crypto';
import { systemClock, type Logger } from '@feedback/kit-core';
import type { Producer } from '@feedback/kit-kafka';
import type { S3Client } from '@feedback/kit-stores';
import type { Db } from 'mongodb';
import { kafkaFileEvents, type FileEventTopics } from './adapters/kafka/file-events.publisher.js';
import { MongoDirectoryRepository } from './adapters/mongo/directory.repository.js';
import { MongoExpiryRepository } from './adapters/mongo/expiry.repository.js';
import { MongoFileRepository } from './adapters/mongo/file.repository.js';
import { MongoUploadOutbox } from './adapters/mongo/outbox.repository.js';
import { MongoProcessingRepository } from './adapters/mongo/processing.repository.js';
import { MongoObjectSweepList } from './adapters/mongo/sweep-list.repository.js';
import { S3BlobStore } from './adapters/s3/blob.store.js';
import type { FileServiceDeps } from './domain/ports.js';

interface Infrastructure {
  db: Db;
  s3: S3Client;
  bucket: string;
  producer: Producer;
  topics: FileEventTopics;
  logger: Logger;
  maxUploadBytes: number;
  retentionMs: number;
}

/** The real adapters behind the domain's ports (main.ts and the integration tests share it). */
export function fileServiceDeps(infra: Infrastructure): FileServiceDeps {
  return {
    directories: new MongoDirectoryRepository(infra.db),
    files: new MongoFileRepository(infra.db),
    processing: new MongoProcessingRepository(infra.db),
    expiry: new MongoExpiryRepository(infra.db),
    sweepList: new MongoObjectSweepList(infra.db),
    outbox: new MongoUploadOutbox(infra.db),
    blobs: new S3BlobStore(infra.s3, infra.bucket),
    events: kafkaFileEvents(infra.producer, infra.topics),
    clock: systemClock,
    newId: randomUUID,
    newBlobToken: () => randomBytes(32).toString('base64url'),
    logger: infra.logger,
    maxUploadBytes: infra.maxUploadBytes,
    retentionMs: infra.retentionMs,
  };
}

/** The file.uploaded outbox's backlog, for its metric (kit-metrics outboxBacklogMetrics). */
export function uploadOutboxBacklog(db: Db) {
  const outbox = new MongoUploadOutbox(db);
  return () => outbox.backlog();
}
