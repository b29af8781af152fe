import { PersonalDataProtector } from '@feedback/kit-core';
import { createLogger, onShutdown } from '@feedback/kit-core/runtime';
import { grpcListenOptions, startGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, runErasureConsumer, runRetentionConsumer } from '@feedback/kit-kafka';
import { startMetricsListener } from '@feedback/kit-metrics';
import { connectMongo, ensureIndexes, MongoLease, MongoRetentionSettings, startRetentionJob, sweepLimits } from '@feedback/kit-stores';
import { WebhookServiceService } from '@feedback/proto/feedback/webhooks/v1/webhooks';
import { runEventsConsumer } from './adapters/kafka/events.consumer.js';
import { MongoDeliveryEraser } from './adapters/mongo/delivery-erasure.repository.js';
import { webhooksIndexes } from './adapters/mongo/indexes.js';
import { webhooksRetentionSweep } from './adapters/mongo/retention.sweep.js';
import { startDeliverySender } from './adapters/sender/delivery.sender.js';
import { deliverySubjects, eraseWebhookDeliveries } from './domain/data-erasure.use-cases.js';
import { loadEnv } from './env.js';
import { webhooksHandlers } from './grpc/webhooks.handlers.js';
import { webhooksDeps } from './wiring.js';

// The one wiring place of the webhooks service.
const config = loadEnv();
const logger = createLogger('webhooks', config.LOG_LEVEL);
// First: a process stuck connecting to its stores still shows it on its metrics port.
const metrics = await startMetricsListener({ app: 'webhooks', host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
const mongo = await connectMongo({ ...config.mongo, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, webhooksIndexes);

const personalData = new PersonalDataProtector(config.PERSONAL_DATA_KEY, config.PERSONAL_DATA_PREVIOUS_KEYS);
const deps = webhooksDeps({
  db: mongo.db,
  subjectHashes: (body) => deliverySubjects(body).map((s) => personalData.hash(s.value, s.kind)),
  logger,
  secretKey: config.WEBHOOKS_SECRET_KEY,
  previousSecretKeys: config.WEBHOOKS_SECRET_PREVIOUS_KEYS,
  allowHttp: config.WEBHOOKS_ALLOW_HTTP,
  allowedCidrs: config.WEBHOOKS_ALLOWED_CIDRS,
  retrySchedule: config.WEBHOOKS_RETRY_SCHEDULE,
  disableAfterMs: config.WEBHOOKS_DISABLE_AFTER_MS,
  timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
  leaseMs: config.WEBHOOKS_LEASE_MS,
  maxEndpointsPerAccount: config.WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT,
  testSendsPerMinute: config.WEBHOOKS_TEST_SENDS_PER_MINUTE,
});
const kafka = createKafka({ ...config.kafka, clientId: 'webhooks', logger });
const topics = {
  surveyAnswered: config.SURVEY_ANSWERED_TOPIC,
  smsStatus: config.SMS_STATUS_TOPIC,
  fileExpired: config.FILE_EXPIRED_TOPIC,
  fileProcessed: config.FILE_PROCESSED_TOPIC,
  sharingCompleted: config.SHARING_COMPLETED_TOPIC,
};
// The producers create these too; whichever service starts first, the group subscribes to existing topics.
await ensureTopics(kafka, [
  { topic: topics.surveyAnswered, numPartitions: 3 },
  { topic: topics.smsStatus, numPartitions: 3 },
  { topic: topics.fileExpired, numPartitions: 3 },
  { topic: topics.fileProcessed, numPartitions: 3 },
  { topic: topics.sharingCompleted, numPartitions: 3 },
]);

const server = await startGrpcServer({
  ...grpcListenOptions(config),
  logger,
  services: [{ definition: WebhookServiceService, implementation: webhooksHandlers(deps) }],
});
logger.info(
  { port: server.port, allow_http: config.WEBHOOKS_ALLOW_HTTP, allowed_cidrs: config.WEBHOOKS_ALLOWED_CIDRS.map(([a, p]) => `${a}/${p}`) },
  'webhooks service listening',
);

const sender = startDeliverySender({
  deps,
  concurrency: config.WEBHOOKS_CONCURRENCY,
  idleMs: config.WEBHOOKS_POLL_MS,
  timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
  logger,
});
const consumer = await runEventsConsumer({
  kafka,
  topics,
  groupId: config.WEBHOOKS_EVENTS_GROUP,
  deps,
  logger,
  // A new group reads the topics from their start: no event published while it first joins is
  // lost, and the history raises nothing, since no endpoint existed before this service did.
  fromBeginning: true,
  background: true,
  // Without its consumer the service would silently stop raising webhooks: restart it instead.
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
  // The first attempt follows the store at once, not the next look for due deliveries.
  handoff: sender,
});
// Retention (docs/api.md "Retention"): the accounts' settings from the gateway, swept by one replica at a time.
const retentionSettings = new MongoRetentionSettings(mongo.db);
const retentionConsumer = await runRetentionConsumer({
  kafka,
  topic: config.ACCOUNT_RETENTION_TOPIC,
  groupId: config.ACCOUNT_RETENTION_GROUP,
  settings: retentionSettings,
  logger,
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
});
const retentionSweep = webhooksRetentionSweep(mongo.db, retentionSettings, config.WEBHOOK_DELIVERIES_RETENTION_DAYS);
const retention = startRetentionJob({
  lease: new MongoLease(mongo.db),
  intervalMs: config.RETENTION_SWEEP_INTERVAL_MS,
  sweep: (offset) => retentionSweep(new Date(), sweepLimits(config, offset)),
  logger,
});

// Erasure of one person's data (docs/api.md "Personal data"): the delivery log entries about them.
const producer = createProducer(kafka, { logger });
await producer.connect();
const deliveryEraser = new MongoDeliveryEraser(mongo.db);
const erasures = await runErasureConsumer({
  kafka,
  producer,
  topics: { requested: config.DATA_ERASURE_REQUESTED_TOPIC, progress: config.DATA_ERASURE_PROGRESS_TOPIC },
  groupId: config.DATA_ERASURE_GROUP,
  service: 'webhooks',
  logger,
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
  erase: async (r) => ({
    webhookDeliveries: await eraseWebhookDeliveries({ deliveries: deliveryEraser, hashes: (v, p) => personalData.hashes(v, p) }, r),
  }),
});

// The metrics listener closes last: a scrape during the drain still answers.
onShutdown(logger, [
  metrics,
  { name: 'mongo', close: () => mongo.close() },
  sender,
  { name: 'retention', close: () => retention.close() },
  consumer,
  retentionConsumer,
  // Closed after the consumer that publishes with it (the list closes from its end).
  { name: 'kafka-producer', close: () => producer.disconnect() },
  erasures,
  { name: 'grpc', close: () => server.shutdown() },
]);
