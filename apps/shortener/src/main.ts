import { createLogger, onShutdown } from '@feedback/kit-core/runtime';
import { grpcListenOptions, startGrpcServer } from '@feedback/kit-grpc';
import { createKafka, createProducer, runErasureConsumer } from '@feedback/kit-kafka';
import { startMetricsListener } from '@feedback/kit-metrics';
import { connectMongo, ensureIndexes } from '@feedback/kit-stores';
import { ShortenerServiceService } from '@feedback/proto/feedback/shortener/v1/shortener';
import { runClickConsumer } from './adapters/kafka/click.consumer.js';
import { MongoLinkEraser } from './adapters/mongo/link-erasure.repository.js';
import { shortenerIndexes } from './adapters/mongo/indexes.js';
import { countClicks } from './domain/click-counting.js';
import { countClickHours } from './domain/link-hours.js';
import { eraseShortLinks } from './domain/data-erasure.use-cases.js';
import { loadEnv } from './env.js';
import { shortenerHandlers } from './grpc/shortener.handlers.js';
import { linkAnalyticsDeps, shortenerServiceDeps } from './wiring.js';

// The one wiring place of the shortener service.
const config = loadEnv();
const logger = createLogger('shortener', config.LOG_LEVEL);
// First: a process stuck connecting to its stores still shows it on its metrics port.
const metrics = await startMetricsListener({ app: 'shortener', host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
const mongo = await connectMongo({ ...config.mongo, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, shortenerIndexes);

const deps = shortenerServiceDeps({
  db: mongo.db,
  domainCacheTtlMs: config.DOMAIN_CACHE_TTL_MS,
  shortCodeLength: config.SHORT_CODE_LENGTH,
  settings: { shortBase: config.PUBLIC_SHORTENER_URL, maxUrlLength: config.MAX_URL_LENGTH },
});
const analytics = linkAnalyticsDeps(mongo.db, logger);

// gRPC first: a restarted shortener serves redirects and shortens at once, while its click
// consumer joins the group in the background (that can take a session timeout).
const server = await startGrpcServer({
  ...grpcListenOptions(config),
  logger,
  services: [{ definition: ShortenerServiceService, implementation: shortenerHandlers(deps, analytics) }],
});
logger.info({ port: server.port }, 'shortener service listening');

const kafka = createKafka({ ...config.kafka, clientId: 'shortener', logger });
const clicks = await runClickConsumer({
  kafka,
  topic: config.CLICKS_TOPIC,
  groupId: config.CLICKS_GROUP,
  logger,
  sessionTimeout: config.CLICKS_SESSION_TIMEOUT_MS,
  heartbeatInterval: Math.floor(config.CLICKS_SESSION_TIMEOUT_MS / 10),
  // The hour counters first: a failure of either redelivers the batch, which both absorb.
  onClicks: async (partition, batch) => {
    await countClickHours(analytics, partition, batch);
    await countClicks(
      deps.tallies,
      partition,
      batch.filter((r) => r.clicks > 0),
    );
  },
  // Without its consumer the service would silently stop counting: restart it instead.
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
});

// Erasure of one person's data (docs/api.md "Personal data"): the account's short links to their survey links.
const producer = createProducer(kafka, { logger });
await producer.connect();
const erasureLinks = new MongoLinkEraser(mongo.db);
const erasures = await runErasureConsumer({
  kafka,
  producer,
  topics: { requested: config.DATA_ERASURE_REQUESTED_TOPIC, progress: config.DATA_ERASURE_PROGRESS_TOPIC },
  groupId: config.DATA_ERASURE_GROUP,
  service: 'shortener',
  logger,
  onCrash: () => process.kill(process.pid, 'SIGTERM'),
  erase: async (r) => ({ links: await eraseShortLinks({ links: erasureLinks }, r) }),
});

// The metrics listener closes last: a scrape during the drain still answers.
onShutdown(logger, [
  metrics,
  { name: 'mongo', close: () => mongo.close() },
  { name: 'kafka-producer', close: () => producer.disconnect() },
  clicks,
  erasures,
  { name: 'grpc', close: () => server.shutdown() },
]);
