import { randomUUID } from 'node:crypto';
import { createLogger, onShutdown } from '@feedback/kit-core/runtime';
import { grpcListenOptions, startGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics } from '@feedback/kit-kafka';
import { outboxBacklogMetrics, startMetricsListener } from '@feedback/kit-metrics';
import { connectMongo, createS3, ensureBucket, ensureIndexes } from '@feedback/kit-stores';
import { FileServiceService } from '@feedback/proto/feedback/file/v1/file';
import { fileServiceIndexes } from './adapters/mongo/indexes.js';
import { loadEnv } from './env.js';
import { fileHandlers } from './grpc/file.handlers.js';
import { widenFlowControlWindow } from './grpc/flow-control.js';
import { startMaintenance } from './jobs/maintenance.job.js';
import { fileServiceDeps, uploadOutboxBacklog } from './wiring.js';

// The one wiring place of the file service.
const config = loadEnv();
const logger = createLogger('file', config.LOG_LEVEL);
// First: a process stuck connecting to its stores still shows it on its metrics port.
const metrics = await startMetricsListener({ app: 'file', host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
const mongo = await connectMongo({ ...config.mongo, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, fileServiceIndexes);
const s3 = createS3({
  endpoint: config.S3_ENDPOINT,
  accessKey: config.S3_ACCESS_KEY,
  secretKey: config.S3_SECRET_KEY,
  region: config.S3_REGION,
  partSize: config.S3_PART_SIZE_BYTES,
  logger,
});
await ensureBucket(s3, config.S3_BUCKET, config.S3_REGION);
const kafka = createKafka({ ...config.kafka, clientId: 'file', logger });
const topics = { uploaded: config.FILE_UPLOADED_TOPIC, expired: config.FILE_EXPIRED_TOPIC, processed: config.FILE_PROCESSED_TOPIC };
await ensureTopics(kafka, [
  { topic: topics.uploaded, numPartitions: 3 },
  { topic: topics.expired, numPartitions: 3 },
  { topic: topics.processed, numPartitions: 3 },
]);
const producer = createProducer(kafka, { logger });
await producer.connect();

const deps = fileServiceDeps({
  db: mongo.db,
  s3,
  bucket: config.S3_BUCKET,
  producer,
  topics,
  logger,
  maxUploadBytes: config.MAX_UPLOAD_BYTES,
  retentionMs: config.FILE_RETENTION_SECONDS * 1000,
});
outboxBacklogMetrics('file.uploaded', uploadOutboxBacklog(mongo.db));
const server = await startGrpcServer({
  ...grpcListenOptions(config),
  logger,
  services: [{ definition: FileServiceService, implementation: fileHandlers(deps) }],
});
widenFlowControlWindow(server.server, config.GRPC_FLOW_CONTROL_WINDOW_BYTES, logger);
const job = startMaintenance(deps, {
  holder: `file-${process.pid}-${randomUUID().slice(0, 8)}`,
  intervalMs: config.EXPIRY_INTERVAL_MS,
  leaseMs: config.EXPIRY_LEASE_MS,
  batch: config.EXPIRY_BATCH,
  staleUploadMs: config.STALE_UPLOAD_SECONDS * 1000,
});
logger.info({ port: server.port, bucket: config.S3_BUCKET, retention_s: config.FILE_RETENTION_SECONDS }, 'file service listening');

// The metrics listener closes last: a scrape during the drain still answers.
onShutdown(logger, [
  metrics,
  { name: 'mongo', close: () => mongo.close() },
  { name: 'kafka-producer', close: () => producer.disconnect() },
  job,
  { name: 'grpc', close: () => server.shutdown() },
]);
