import { randomUUID } from 'node:crypto';
import { createLogger, onShutdown } from '@feedback/kit-core';
import { createKafka, createProducer, ensureTopics } from '@feedback/kit-kafka';
import { connectMongo, createRedis, ensureIndexes, waitForRedis } from '@feedback/kit-stores';
import { CachedTokenRepository } from './adapters/cached-token.repository.js';
import { ClickPublisher } from './adapters/click-publisher.js';
import { connectPeers } from './adapters/grpc-peers.js';
import { LinkResolver } from './adapters/link-resolver.js';
import { MongoAccountRepository } from './adapters/mongo/account.repository.js';
import { gatewayIndexes } from './adapters/mongo/indexes.js';
import { MongoNodeRepository } from './adapters/mongo/node.repository.js';
import { MongoTokenRepository } from './adapters/mongo/token.repository.js';
import { createShortenLimiter } from './adapters/shorten-rate-limiter.js';
import { loadEnv } from './env.js';
import { buildApi } from './http/build-api.js';
import { buildLink } from './http/build-link.js';
import { createMetrics } from './http/metrics.js';
import { parseTrustProxy } from './http/trust-proxy.js';

// The one wiring place of the gateway.
const config = loadEnv();
const logger = createLogger('gateway', config.LOG_LEVEL);
const mongo = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, gatewayIndexes);
const peers = connectPeers({
  flowAddr: config.FLOW_GRPC_ADDR,
  fileAddr: config.FILE_GRPC_ADDR,
  shortenerAddr: config.SHORTENER_GRPC_ADDR,
  deadlineMs: config.GRPC_DEADLINE_MS,
  streamDeadlineMs: config.FILE_STREAM_DEADLINE_MS,
  logger,
});
const metrics = createMetrics('gateway');

const tokens = new CachedTokenRepository(new MongoTokenRepository(mongo.db), {
  ttlMs: config.TOKEN_CACHE_TTL_MS,
  missTtlMs: Math.min(config.TOKEN_CACHE_TTL_MS, 2_000),
  maxEntries: 10_000,
});

const api = await buildApi({
  logger,
  metrics,
  accounts: new MongoAccountRepository(mongo.db),
  tokens,
  nodes: new MongoNodeRepository(mongo.db),
  clock: { now: () => new Date() },
  newId: randomUUID,
  flows: peers.flows,
  adminToken: config.ADMIN_TOKEN,
  bodyLimitBytes: config.BODY_LIMIT_BYTES,
  publicUrl: config.PUBLIC_BASE_URL,
  files: { files: peers.files, publicBaseUrl: config.PUBLIC_BASE_URL, maxUploadBytes: config.MAX_UPLOAD_BYTES },
  shortener: peers.shortener,
  readiness: [
    { name: 'mongo', check: async () => void (await mongo.db.command({ ping: 1 })) },
    ...peers.readiness,
  ],
});
// Redis and Kafka serve the link listener only, and it works without either (docs/decisions.md).
const redis = createRedis({ url: config.REDIS_URL, logger, name: 'gateway', commandTimeoutMs: 250 });
await waitForRedis(redis, 3_000).catch((err: unknown) => logger.warn({ err }, 'redis not ready; link cache and rate limit run in process'));
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'gateway', logger });
void ensureTopics(kafka, [{ topic: config.CLICKS_TOPIC, numPartitions: 3 }]).catch((err: unknown) => logger.warn({ err }, 'could not ensure the clicks topic'));
const producer = createProducer(kafka, { logger });
const clicks = new ClickPublisher(producer, { topic: config.CLICKS_TOPIC, batchSize: 1000, flushIntervalMs: 250, maxBuffered: 200_000, logger });
clicks.start();
const link = await buildLink({
  logger,
  metrics,
  trustProxy: parseTrustProxy(config.TRUST_PROXY),
  publicUrl: config.PUBLIC_SHORTENER_URL,
  links: {
    shortener: peers.shortener,
    links: new LinkResolver(peers.shortener, redis, { maxEntries: 100_000, ttlMs: config.LINK_CACHE_TTL_MS, missTtlMs: 5_000, logger }),
    clicks,
    limiter: createShortenLimiter({
      redis,
      points: config.SHORTEN_RATE_LIMIT_POINTS,
      windowSec: config.SHORTEN_RATE_LIMIT_WINDOW_SEC,
      exempt: config.SHORTEN_RATE_LIMIT_EXEMPT,
      logger,
    }),
    redirectStatus: config.REDIRECT_STATUS,
  },
});

await api.listen({ host: config.HOST, port: config.API_PORT });
await link.listen({ host: config.HOST, port: config.LINK_PORT });

onShutdown(logger, [
  { name: 'mongo', close: () => mongo.close() },
  { name: 'grpc-peers', close: () => peers.close() },
  { name: 'redis', close: () => redis.quit() },
  { name: 'kafka-producer', close: () => producer.disconnect() },
  { name: 'clicks', close: () => clicks.close() },
  { name: 'link-http', close: () => link.close() },
  { name: 'api-http', close: () => api.close() },
]);
