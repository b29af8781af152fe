import { PersonalDataProtector } from '@feedback/kit-core';
import { createLogger, onShutdown } from '@feedback/kit-core/runtime';
import { createGrpcClient, grpcListenOptions, startGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, runRetentionConsumer } from '@feedback/kit-kafka';
import { outboxBacklogMetrics, startMetricsListener } from '@feedback/kit-metrics';
import { connectMongo, ensureIndexes, MongoLease, MongoRetentionSettings, startRetentionJob, sweepLimits } from '@feedback/kit-stores';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { SurveyServiceService } from '@feedback/proto/feedback/survey/v1/survey';
import { runErasureProgressConsumer, runErasureRequestConsumer } from './adapters/kafka/data-erasure.consumer.js';
import { retiredSurveyIndexes, surveyIndexes } from './adapters/mongo/indexes.js';
import { surveyRetentionSweep } from './adapters/mongo/retention.sweep.js';
import { hashSensitiveCustomerFields } from './adapters/mongo/sensitive-fields.migration.js';
import { NO_COUNTS } from './domain/data-erasure.js';
import { eraseSurveyData, recordErasureProgress } from './domain/data-erasure.use-cases.js';
import { loadEnv } from './env.js';
import { surveyHandlers } from './grpc/survey.handlers.js';
import { startOutboxJob } from './jobs/outbox.job.js';
import { answeredOutboxBacklog, surveyErasureDeps, surveyServiceDeps } from './wiring.js';

// The one wiring place of the survey service.
const config = loadEnv();
const logger = createLogger('survey', config.LOG_LEVEL);
// First: a process stuck connecting to its stores still shows it on its metrics port.
const metrics = await startMetricsListener({ app: 'survey', host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
const mongo = await connectMongo({ ...config.mongo, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, surveyIndexes, retiredSurveyIndexes);
const kafka = createKafka({ ...config.kafka, clientId: 'survey', logger });
await ensureTopics(kafka, [
  { topic: config.SURVEY_ANSWERED_TOPIC, numPartitions: 3 },
  { topic: config.DATA_ERASURE_REQUESTED_TOPIC, numPartitions: 3 },
  { topic: config.DATA_ERASURE_PROGRESS_TOPIC, numPartitions: 3 },
]);
const producer = createProducer(kafka, { logger });
await producer.connect();
const flowClient = createGrpcClient(FlowServiceClient, config.FLOW_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS, logger });

const personalData = new PersonalDataProtector(config.PERSONAL_DATA_KEY, config.PERSONAL_DATA_PREVIOUS_KEYS);
const deps = surveyServiceDeps({
  db: mongo.db,
  flowClient,
  flowCacheEntries: config.FLOW_CACHE_ENTRIES,
  producer,
  answeredTopic: config.SURVEY_ANSWERED_TOPIC,
  logger,
  config: {
    publicBaseUrl: config.PUBLIC_BASE_URL,
    defaultPhoneRegion: config.DEFAULT_PHONE_REGION,
    defaultLinkTtlDays: config.DEFAULT_LINK_TTL_DAYS,
    customerSchemaAttributes: config.CUSTOMER_SCHEMA_ATTRIBUTES,
    sensitiveAttributes: config.SENSITIVE_CUSTOMER_ATTRIBUTES,
  },
  personalData,
});
const erasureDeps = surveyErasureDeps({
  db: mongo.db,
  producer,
  protector: personalData,
  topics: { requested: config.DATA_ERASURE_REQUESTED_TOPIC, progress: config.DATA_ERASURE_PROGRESS_TOPIC },
  deps,
  expectedServices: config.DATA_ERASURE_SERVICES,
});
const server = await startGrpcServer({
  ...grpcListenOptions(config),
  logger,
  services: [{ definition: SurveyServiceService, implementation: surveyHandlers(deps, erasureDeps) }],
});
const outbox = startOutboxJob(deps, config.OUTBOX_INTERVAL_MS);
// Beside serving, not before it: customers it has not reached yet still compare (sensitive-fields.ts).
const stopMigration = new AbortController();
const migration = hashSensitiveCustomerFields(mongo.db, {
  config: deps.config,
  hasher: personalData,
  logger,
  signal: stopMigration.signal,
}).catch((err: unknown) => logger.error({ err }, 'hashing the sensitive customer fields failed; the next start tries again'));
outboxBacklogMetrics('survey.answered', answeredOutboxBacklog(mongo.db));
// Without them requests would stay pending for ever: a crashed consumer restarts the process.
const erasureRequests = await runErasureRequestConsumer({
  kafka,
  topic: config.DATA_ERASURE_REQUESTED_TOPIC,
  groupId: config.DATA_ERASURE_GROUP,
  logger,
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
  erase: async (r) => {
    const counts = await eraseSurveyData(erasureDeps, r);
    await erasureDeps.events.progress({
      erasureId: r.erasureId,
      accountId: r.accountId,
      service: 'survey',
      counts: { ...NO_COUNTS, ...counts },
    });
  },
});
const erasureProgress = await runErasureProgressConsumer({
  kafka,
  topic: config.DATA_ERASURE_PROGRESS_TOPIC,
  groupId: config.DATA_ERASURE_PROGRESS_GROUP,
  logger,
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
  record: (p) => recordErasureProgress(erasureDeps, p),
});
logger.info(
  { port: server.port, public_base_url: config.PUBLIC_BASE_URL, phone_region: config.DEFAULT_PHONE_REGION },
  'survey service listening',
);

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
const retentionSweep = surveyRetentionSweep(mongo.db, retentionSettings, {
  responsesDays: config.RESPONSES_RETENTION_DAYS,
  linkGraceDays: config.EXPIRED_LINK_GRACE_DAYS,
});
const retention = startRetentionJob({
  lease: new MongoLease(mongo.db),
  intervalMs: config.RETENTION_SWEEP_INTERVAL_MS,
  sweep: (offset) => retentionSweep(new Date(), sweepLimits(config, offset)),
  logger,
});

// The metrics listener closes last: a scrape during the drain still answers.
onShutdown(logger, [
  metrics,
  { name: 'mongo', close: () => mongo.close() },
  { name: 'sensitive-fields-migration', close: () => (stopMigration.abort(), migration) },
  { name: 'kafka-producer', close: () => producer.disconnect() },
  { name: 'flow-client', close: async () => flowClient.close() },
  outbox,
  { name: 'retention', close: () => retention.close() },
  retentionConsumer,
  erasureRequests,
  erasureProgress,
  { name: 'grpc', close: () => server.shutdown() },
]);
