import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile, s3Settings } from '@feedback/dev-stack';
import {
  callMetadata,
  createGrpcClient,
  startGrpcServer,
  statusToAppError,
  type GrpcClient,
  type RunningGrpcServer,
} from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, type Producer } from '@feedback/kit-kafka';
import { connectMongo, createS3, ensureBucket, ensureIndexes, type MongoHandle, type S3Client } from '@feedback/kit-stores';
import { FileServiceClient, FileServiceService, type File, type UploadMetadata } from '@feedback/proto/feedback/file/v1/file';
import { fileServiceIndexes } from '../src/adapters/mongo/indexes.js';
import type { FileServiceDeps } from '../src/domain/ports.js';
import { fileHandlers } from '../src/grpc/file.handlers.js';
import { widenFlowControlWindow } from '../src/grpc/flow-control.js';
import { fileServiceDeps } from '../src/wiring.js';

/** The real servers of the local stack (`./stack up` or `infra/infra.sh up`); never a mock. */
export const stack = readStackFile();
export const logger = createLogger('file-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'file-test', logger });
export const uniq = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

/** A database of its own for a test, with the file service's indexes. */
export async function openTestDb(dbName = uniq('file_test').replace('-', '_')): Promise<MongoHandle> {
  const mongo = await connectMongo({ url: stack.mongo_url, dbName, logger });
  await ensureIndexes(mongo.db, fileServiceIndexes);
  return mongo;
}

/** Drops what openTestDb made and closes it (a failed open leaves nothing to drop). */
export async function dropTestDb(mongo: MongoHandle | undefined): Promise<void> {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
}

export interface TestFileService {
  deps: FileServiceDeps;
  mongo: MongoHandle;
  s3: S3Client;
  bucket: string;
  topics: { uploaded: string; expired: string; processed: string };
  server: RunningGrpcServer;
  client: GrpcClient<FileServiceClient>;
  producer: Producer;
  close(): Promise<void>;
}

/** A file service on port 0 with its own database, bucket and topics. */
export async function startFileService(
  opts: { maxUploadBytes?: number; retentionMs?: number; dbName?: string; bucket?: string } = {},
): Promise<TestFileService> {
  const mongo = await openTestDb(opts.dbName);
  const s3 = createS3({
    ...s3Settings(stack),
    logger,
  });
  const bucket = opts.bucket ?? uniq('file-test');
  await ensureBucket(s3, bucket, stack.s3.region);
  const topics = { uploaded: uniq('file.uploaded'), expired: uniq('file.expired'), processed: uniq('file.processed') };
  await ensureTopics(kafka, [{ topic: topics.uploaded }, { topic: topics.expired }, { topic: topics.processed }]);
  const producer = createProducer(kafka, { logger });
  await producer.connect();
  const deps = fileServiceDeps({
    db: mongo.db,
    s3,
    bucket,
    producer,
    topics,
    logger,
    maxUploadBytes: opts.maxUploadBytes ?? 64 * 1024 * 1024,
    retentionMs: opts.retentionMs ?? 7 * 24 * 3600_000,
  });
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [{ definition: FileServiceService, implementation: fileHandlers(deps) }],
  });
  widenFlowControlWindow(server.server, 1024 * 1024, logger);
  const client = createGrpcClient(FileServiceClient, server.address, { deadlineMs: 10_000 });
  return {
    deps,
    mongo,
    s3,
    bucket,
    topics,
    server,
    client,
    producer,
    async close() {
      client.close();
      await server.shutdown();
      await producer.disconnect();
      await emptyBucket(s3, bucket).catch(() => undefined);
      await dropTestDb(mongo);
    },
  };
}

export async function objectKeys(s3: S3Client, bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of s3.listObjectsV2(bucket, prefix, true)) if (o.name) keys.push(o.name);
  return keys;
}

/** Open multipart uploads; one aborted while being listed shows as '(aborting)' (minio-js lists parts too). */
export async function incompleteUploads(s3: S3Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  try {
    for await (const u of s3.listIncompleteUploads(bucket, '', true)) keys.push(u.key);
  } catch (err) {
    if ((err as { code?: string }).code !== 'NoSuchUpload') throw err;
    keys.push('(aborting)');
  }
  return keys;
}

async function emptyBucket(s3: S3Client, bucket: string) {
  const keys = await objectKeys(s3, bucket);
  if (keys.length) await s3.removeObjects(bucket, keys);
  await s3.removeBucket(bucket);
}

/** A client-streaming upload: metadata, the chunks (with backpressure), an optional trailer. */
export function upload(
  client: FileServiceClient,
  meta: Partial<UploadMetadata> & Pick<UploadMetadata, 'accountId' | 'directoryId'>,
  chunks: Iterable<Buffer> | AsyncIterable<Buffer>,
  /** trailer: a filename sent after the bytes (the trailer itself is always sent, it ends the upload). */
  opts: { trailer?: string; signal?: AbortSignal } = {},
): Promise<File> {
  let call!: ReturnType<FileServiceClient['uploadFile']>;
  const result = new Promise<File>((resolve, reject) => {
    call = client.uploadFile(callMetadata({ requestId: randomUUID() }), { deadline: Date.now() + 60_000 }, (err, res) =>
      err ? reject(statusToAppError(err)) : resolve(res.file!),
    );
  });
  opts.signal?.addEventListener('abort', () => call.cancel());
  void (async () => {
    call.write({ metadata: { filename: '', originalFilename: '', contentType: '', userId: 'token-1', ...meta } });
    for await (const chunk of chunks) {
      if (opts.signal?.aborted) return;
      if (!call.write({ chunk })) await Promise.race([once(call, 'drain'), result.catch(() => undefined)]);
    }
    call.write({ trailer: { filename: opts.trailer ?? '' } });
    call.end();
  })();
  return result;
}

/** Polls until the condition holds; fails naming `what` after the timeout. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
