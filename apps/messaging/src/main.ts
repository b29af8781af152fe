import { randomBytes } from 'node:crypto';
import { PersonalDataProtector } from '@feedback/kit-core';
import { createLogger, onShutdown } from '@feedback/kit-core/runtime';
import { createGrpcClient, startGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics, runErasureConsumer, runRetentionConsumer } from '@feedback/kit-kafka';
import { startMetricsListener } from '@feedback/kit-metrics';
import { connectMongo, ensureIndexes, MongoLease, MongoRetentionSettings, startRetentionJob, sweepLimits } from '@feedback/kit-stores';
import { FileServiceClient } from '@feedback/proto/feedback/file/v1/file';
import { MessagingServiceService } from '@feedback/proto/feedback/messaging/v1/messaging';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { SurveyServiceClient } from '@feedback/proto/feedback/survey/v1/survey';
import { SecretBox } from './providers/adapters/crypto/secret-box.js';
import { filePorts } from './csv-workflow/adapters/grpc/file.client.js';
import { shortenerPort } from './dispatch/adapters/grpc/shortener.client.js';
import { surveyPorts } from './shared/adapters/grpc/survey.client.js';
import { startDlrServer } from './providers/adapters/http/dlr.server.js';
import { acceptGate } from './intake/adapters/accept-gate.js';
import { meteredDeliveryReports } from './shared/adapters/metrics/metered.js';
import { promSmsMetrics } from './shared/adapters/metrics/sms.metrics.js';
import { runDispatchConsumer } from './dispatch/adapters/kafka/dispatch.consumer.js';
import { InProcessHandOvers } from './dispatch/adapters/hand-over.tracker.js';
import { runFileUploadedConsumer } from './csv-workflow/adapters/kafka/file-uploaded.consumer.js';
import { messagingRetentionSweep } from './erasure/adapters/mongo/retention.sweep.js';
import { startStepScheduler } from './scheduling/adapters/step.scheduler.js';
import { messagingIndexes } from './shared/adapters/mongo/indexes.js';
import { sensitiveAttributes } from './shared/adapters/mongo/sensitive-attributes.js';
import { stripSensitiveRecipientAttributes } from './shared/adapters/mongo/sensitive-attributes.migration.js';
import { eraseMessagingData } from './erasure/domain/data-erasure.use-cases.js';
import { loadEnv } from './env.js';
import { messagingHandlers } from './grpc/messaging.handlers.js';
import { receiveInboundSms } from './opt-outs/domain/opt-out.use-cases.js';
import { placeholderLink } from './shared/domain/sms-text.js';
import { deploymentProvider, deploymentSender, messagingDeps, messagingErasureDeps } from './wiring.js';

// Starts the messaging service: its adapters are built and wired in wiring.ts.
/** Partitions of the small sharings' lane (sms.dispatch.priority), all read at once by each replica. */
const PRIORITY_PARTITIONS = 6;
const config = loadEnv();
const logger = createLogger('messaging', config.LOG_LEVEL);
// First: a process stuck connecting to its stores still shows it on its metrics port.
const metrics = await startMetricsListener({ app: 'messaging', host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
const mongo = await connectMongo({ ...config.mongo, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, messagingIndexes);

// Without a configured secret the callback URLs of this process are signed with a random one:
// reports for messages sent before a restart are then refused (and logged).
const dlrSecret = config.DLR_SECRET ?? randomBytes(32).toString('base64url');
if (!config.DLR_SECRET) logger.warn('DLR_SECRET unset: delivery reports do not survive a restart');
// Before connecting to anything: a bad SMS_HTTP_PROVIDER fails the start at once.
const sms = deploymentProvider({
  kind: config.SMS_PROVIDER,
  httpProviderJson: config.SMS_HTTP_PROVIDER,
  dlrBaseUrl: config.DLR_PUBLIC_URL,
  dlrSecret,
  turkishShiftTable: config.SMS_TURKISH_SHIFT_TABLE,
});

const kafka = createKafka({ ...config.kafka, clientId: 'messaging', logger });
// The small sharings' lane: its own topic and group, named after the main ones unless set.
const dispatchPriority = {
  topic: config.SMS_DISPATCH_PRIORITY_TOPIC ?? `${config.SMS_DISPATCH_TOPIC}.priority`,
  maxRecipients: config.SMS_DISPATCH_PRIORITY_MAX_RECIPIENTS,
};
const topics = {
  dispatch: config.SMS_DISPATCH_TOPIC,
  status: config.SMS_STATUS_TOPIC,
  completed: config.SHARING_COMPLETED_TOPIC,
  ...(dispatchPriority.maxRecipients > 0 && { dispatchPriority }),
};
await ensureTopics(kafka, [
  { topic: topics.dispatch, numPartitions: 6 },
  { topic: dispatchPriority.topic, numPartitions: PRIORITY_PARTITIONS },
  { topic: topics.status, numPartitions: 3 },
  { topic: topics.completed, numPartitions: 3 },
  { topic: config.FILE_UPLOADED_TOPIC, numPartitions: 3 },
]);
const producer = createProducer(kafka, { logger });
await producer.connect();
const survey = createGrpcClient(SurveyServiceClient, config.SURVEY_GRPC_ADDR, { deadlineMs: config.PEER_DEADLINE_MS, logger });
const shortener = createGrpcClient(ShortenerServiceClient, config.SHORTENER_GRPC_ADDR, { deadlineMs: config.PEER_DEADLINE_MS, logger });
const fileService = createGrpcClient(FileServiceClient, config.FILE_GRPC_ADDR, { deadlineMs: config.PEER_DEADLINE_MS, logger });

const secrets = new SecretBox(config.SMS_PROVIDER_SECRETS_KEY, config.SMS_PROVIDER_SECRETS_PREVIOUS_KEYS);
if (!config.SMS_PROVIDER_SECRETS_KEY) logger.warn('SMS_PROVIDER_SECRETS_KEY unset: accounts cannot have their own SMS provider');
const smsMetrics = promSmsMetrics();
const personalData = new PersonalDataProtector(config.PERSONAL_DATA_KEY, config.PERSONAL_DATA_PREVIOUS_KEYS);
const sensitive = sensitiveAttributes(personalData, config.SENSITIVE_CUSTOMER_ATTRIBUTES);
// Hand-overs to a slow provider left running, so it holds its own messages only (dispatch.use-cases.ts).
const handOvers =
  config.SMS_HAND_OVER_WAIT_MS > 0
    ? new InProcessHandOvers({
        budgetMs: config.SMS_HAND_OVER_WAIT_MS,
        maxAttempts: config.SMS_DISPATCH_MAX_ATTEMPTS,
        capacity: 2_000,
        logger,
      })
    : undefined;
const deps = messagingDeps({
  ...(handOvers && { handOvers }),
  db: mongo.db,
  optOutHashes: (phone) => personalData.hashes(phone, 'phone'),
  sensitive,
  producer,
  topics,
  survey: surveyPorts(survey),
  shortener: shortenerPort(shortener),
  provider: sms.provider,
  turkishShiftTable: config.SMS_TURKISH_SHIFT_TABLE,
  files: filePorts(fileService),
  accountProviders: {
    secrets,
    cacheMs: config.ACCOUNT_SMS_PROVIDER_CACHE_MS,
    dlrBaseUrl: config.DLR_PUBLIC_URL,
    dlrSecret,
  },
  settings: {
    defaultRegion: config.DEFAULT_PHONE_REGION,
    maxPhones: config.MAX_PHONES_PER_SHARING,
    defaultSendWindow: config.SMS_DEFAULT_SEND_WINDOW,
    cost: {
      turkishShift: config.SMS_TURKISH_SHIFT_TABLE,
      placeholderLink: placeholderLink(config.PUBLIC_SHORTENER_URL, config.SHORT_CODE_LENGTH),
    },
  },
  releasePerSecond: config.SMS_RELEASE_PER_SECOND,
  logger,
  metrics: smsMetrics,
});
// Inbound SMS (the SMS gateway's MO callback on the same listener): opt-out keywords.
const inboundRules = {
  keywords: config.SMS_OPT_OUT_KEYWORDS,
  reply: config.SMS_OPT_OUT_REPLY,
  provider: deploymentSender({
    db: mongo.db,
    provider: sms.provider,
    turkishShiftTable: config.SMS_TURKISH_SHIFT_TABLE,
    metrics: smsMetrics,
  }),
};
const dlr = await startDlrServer({
  host: config.DLR_HOST,
  port: config.DLR_PORT,
  secret: dlrSecret,
  statusParam: sms.reports.statusParam,
  rule: sms.reports.rule,
  deps: { messages: meteredDeliveryReports(deps.messages, smsMetrics), clock: deps.clock },
  logger,
  inbound: (mo) => receiveInboundSms(deps, inboundRules, mo),
});
const gate = acceptGate();
// gRPC first: a restarted service takes sharings at once, while its consumers join their groups
// in the background (a restarted member waits for the killed one's session to expire).
const server = await startGrpcServer({
  host: config.GRPC_HOST,
  port: config.GRPC_PORT,
  maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS,
  maxConnectionAgeGraceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
  logger,
  services: [{ definition: MessagingServiceService, implementation: messagingHandlers(deps, gate) }],
});
// The key id is a hash of the key, not the key: operators compare it with documents' key_id after a rotation.
// SMS_PROVIDER=outbox configures no provider: the recording one sends, and that is its name.
logger.info(
  {
    port: server.port,
    provider: sms.provider?.name ?? config.SMS_PROVIDER,
    dlr: dlr.url,
    provider_secrets_key_id: secrets.currentKeyId ?? null,
  },
  'messaging service listening',
);

const consumer = await runDispatchConsumer({
  kafka,
  topic: topics.dispatch,
  groupId: config.SMS_DISPATCH_GROUP,
  deps,
  gate,
  logger,
  maxAttempts: config.SMS_DISPATCH_MAX_ATTEMPTS,
  concurrency: config.SMS_DISPATCH_CONCURRENCY,
  batchSize: config.SMS_DISPATCH_BATCH_SIZE,
  partitions: config.SMS_DISPATCH_PARTITIONS_CONCURRENTLY,
  sessionTimeoutMs: config.SMS_DISPATCH_SESSION_TIMEOUT_MS,
  background: true,
  // Without its consumer the service would silently stop sending: restart it instead.
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
});
// The small sharings' lane: every partition at once and no accept gate, so an event there waits
// neither for a large sharing's backlog nor for another partition's slow provider. Read even when
// the lane is off (0), so what an earlier setting published there still goes out.
const priorityConsumer = await runDispatchConsumer({
  kafka,
  topic: dispatchPriority.topic,
  groupId: config.SMS_DISPATCH_PRIORITY_GROUP ?? `${config.SMS_DISPATCH_GROUP}.priority`,
  deps,
  logger,
  maxAttempts: config.SMS_DISPATCH_MAX_ATTEMPTS,
  concurrency: config.SMS_DISPATCH_CONCURRENCY,
  batchSize: config.SMS_DISPATCH_BATCH_SIZE,
  partitions: PRIORITY_PARTITIONS,
  sessionTimeoutMs: config.SMS_DISPATCH_SESSION_TIMEOUT_MS,
  background: true,
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
});
const scheduler = startStepScheduler({
  deps,
  intervalMs: config.SMS_SCHEDULER_INTERVAL_MS,
  completionEveryMs: config.SHARING_COMPLETION_SWEEP_MS,
  logger,
});
const csvConsumer = await runFileUploadedConsumer({
  kafka,
  topic: config.FILE_UPLOADED_TOPIC,
  groupId: config.FILE_UPLOADED_GROUP,
  deps,
  logger,
  background: true,
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
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
const retentionSweep = messagingRetentionSweep(mongo.db, retentionSettings, config.MESSAGES_RETENTION_DAYS);
const retention = startRetentionJob({
  lease: new MongoLease(mongo.db),
  intervalMs: config.RETENTION_SWEEP_INTERVAL_MS,
  sweep: (offset) => retentionSweep(new Date(), sweepLimits(config, offset)),
  logger,
});

// Recipients stored in clear by earlier versions: beside serving (releases open what it seals meanwhile).
const stopMigration = new AbortController();
const migration = stripSensitiveRecipientAttributes(mongo.db, { sensitive, logger, signal: stopMigration.signal }).catch((err: unknown) =>
  logger.error({ err }, 'taking the sensitive attributes out of stored recipients failed; the next start tries again'),
);

// Erasure of one person's data (docs/api.md "Personal data"): messages deleted, opt-outs kept as hashes.
const erasureDeps = messagingErasureDeps(mongo.db, (phone) => personalData.hash(phone, 'phone'));
const erasureConsumer = await runErasureConsumer({
  kafka,
  producer,
  topics: { requested: config.DATA_ERASURE_REQUESTED_TOPIC, progress: config.DATA_ERASURE_PROGRESS_TOPIC },
  groupId: config.DATA_ERASURE_GROUP,
  service: 'messaging',
  logger,
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
  erase: (r) => eraseMessagingData(erasureDeps, r),
});

// The metrics listener closes last: a scrape during the drain still answers.
onShutdown(logger, [
  metrics,
  { name: 'mongo', close: () => mongo.close() },
  { name: 'sensitive-attributes-migration', close: () => (stopMigration.abort(), migration) },
  { name: 'kafka-producer', close: () => producer.disconnect() },
  {
    name: 'peers',
    close: async () => {
      survey.close();
      shortener.close();
      fileService.close();
    },
  },
  { name: 'sms-scheduler', close: () => scheduler.close() },
  // Closed after the dispatch consumers (closers run in reverse), before the producer and the database.
  ...(handOvers ? [handOvers] : []),
  { name: 'retention', close: () => retention.close() },
  consumer,
  priorityConsumer,
  csvConsumer,
  retentionConsumer,
  erasureConsumer,
  { name: 'dlr-server', close: () => dlr.close() },
  { name: 'grpc', close: () => server.shutdown() },
]);
