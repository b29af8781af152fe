import { createLogger, onShutdown } from '@feedback/kit-core/runtime';
import { grpcListenOptions, startGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, ensureTopics } from '@feedback/kit-kafka';
import { startMetricsListener } from '@feedback/kit-metrics';
import { connectMongo, ensureIndexes } from '@feedback/kit-stores';
import { MessagingServiceService } from '@feedback/proto/feedback/messaging/v1/messaging';
import { loadEnv } from './env.js';
import { messagingHandlers } from './grpc/messaging.handlers.js';
import { acceptGate } from './intake/adapters/accept-gate.js';
import { deploymentSms } from './providers/providers.wiring.js';
import { messagingIndexes, messagingRetiredIndexes } from './shared/adapters/mongo/indexes.js';
import {
  connectPeers,
  messagingDeps,
  messagingInfrastructure,
  messagingTopics,
  startBackgroundWork,
  startDeliveryReports,
} from './wiring.js';

// Starts the messaging service: its adapters are built and wired in wiring.ts.
const config = loadEnv();
const logger = createLogger('messaging', config.LOG_LEVEL);
// First: a process stuck connecting to its stores still shows it on its metrics port.
const metrics = await startMetricsListener({ app: 'messaging', host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
const mongo = await connectMongo({ ...config.mongo, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, messagingIndexes, messagingRetiredIndexes);

// Before connecting to anything: a bad SMS_HTTP_PROVIDER fails the start at once.
const sms = deploymentSms(config, logger);
const kafka = createKafka({ ...config.kafka, clientId: 'messaging', logger });
const topics = messagingTopics(config);
await ensureTopics(kafka, topics.specs);
const producer = createProducer(kafka, { logger });
await producer.connect();
const peers = connectPeers(config, logger);
const infra = messagingInfrastructure({ config, logger, db: mongo.db, producer, topics: topics.names, peers, sms });
const features = messagingDeps(infra);
const dlr = await startDeliveryReports({ config, infra, sms, features, logger });
const gate = acceptGate();
// gRPC first: a restarted service takes sharings at once, while its consumers join their groups
// in the background (a restarted member waits for the killed one's session to expire).
const server = await startGrpcServer({
  ...grpcListenOptions(config),
  logger,
  services: [{ definition: MessagingServiceService, implementation: messagingHandlers(features, gate) }],
});
// The key id is a hash of the key, not the key: operators compare it with documents' key_id after a rotation.
// SMS_PROVIDER=outbox configures no provider: the recording one sends, and that is its name.
logger.info(
  {
    port: server.port,
    provider: sms.provider?.name ?? config.SMS_PROVIDER,
    dlr: dlr.url,
    provider_secrets_key_id: infra.accountProviders?.secrets.currentKeyId ?? null,
  },
  'messaging service listening',
);
const background = await startBackgroundWork({ config, kafka, producer, db: mongo.db, infra, features, gate, logger });

// The metrics listener closes last: a scrape during the drain still answers.
onShutdown(logger, [
  metrics,
  { name: 'mongo', close: () => mongo.close() },
  background.migration,
  { name: 'kafka-producer', close: () => producer.disconnect() },
  peers,
  // Closed after the consumers (closers run in reverse), before the producer and the database.
  ...background.closers,
  { name: 'dlr-server', close: () => dlr.close() },
  { name: 'grpc', close: () => server.shutdown() },
]);
