import { randomUUID } from 'node:crypto';
import { createLogger, onShutdown, systemClock } from '@feedback/kit-core';
import { createKafka, createProducer, ensureTopics } from '@feedback/kit-kafka';
import { TierLimiter, watchLimitsFile } from '@feedback/kit-limits';
import { connectMongo, createRedis, ensureIndexes, waitForRedis } from '@feedback/kit-stores';
import { CachedTokenRepository } from './accounts/adapters/cached-token.repository.js';
import { MongoAccountRepository } from './accounts/adapters/mongo/account.repository.js';
import { gatewayIndexes } from './accounts/adapters/mongo/indexes.js';
import { MongoNodeRepository } from './accounts/adapters/mongo/node.repository.js';
import { MongoTokenRepository } from './accounts/adapters/mongo/token.repository.js';
import { adminFeature } from './api/admin/admin.feature.js';
import { filesFeature } from './api/files/files.feature.js';
import { flowsFeature } from './api/flows/flows.feature.js';
import { idempotencyIndexes, MongoIdempotencyKeys } from './api/sms/idempotency-keys.repository.js';
import { SMS_LIMIT_PREFIX } from './api/sms/sharing-limit.hook.js';
import { smsFeature } from './api/sms/sms.feature.js';
import { surveysFeature } from './api/surveys/surveys.feature.js';
import { loadEnv } from './env.js';
import { connectPeers } from './grpc-peers.js';
import { buildApi } from './http/build-api.js';
import { gracefulClose } from './http/graceful-close.js';
import { createMetrics } from './http/metrics.js';
import { parseTrustProxy } from './http/trust-proxy.js';
import { ClickPublisher } from './links/click.publisher.js';
import { LinkResolver } from './links/link.resolver.js';
import { buildLink } from './links/link-listener.js';
import { createShortenLimiter } from './links/shorten.limiter.js';
import { PEERS } from './peers.js';

// The one wiring place of the gateway.
const config = loadEnv();
const logger = createLogger('gateway', config.LOG_LEVEL);
const mongo = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, { ...gatewayIndexes, ...idempotencyIndexes });
const peers = connectPeers(PEERS, config, {
  deadlineMs: config.GRPC_DEADLINE_MS,
  streamDeadlineMs: config.FILE_STREAM_DEADLINE_MS,
  logger,
});
const metrics = createMetrics('gateway');

const accounts = {
  accounts: new MongoAccountRepository(mongo.db),
  tokens: new CachedTokenRepository(new MongoTokenRepository(mongo.db), {
    ttlMs: config.TOKEN_CACHE_TTL_MS,
    missTtlMs: Math.min(config.TOKEN_CACHE_TTL_MS, 2_000),
    maxEntries: 10_000,
  }),
  nodes: new MongoNodeRepository(mongo.db),
  clock: systemClock,
  newId: randomUUID,
};

// The SMS sharing limit: its own Redis client (no offline queue, short timeout), shared by every
// gateway process; while Redis is away each process limits on its own (kit-limits README).
const limitsRedis = createRedis({ url: config.REDIS_URL, logger, name: 'gateway-limits', commandTimeoutMs: 300 });
await waitForRedis(limitsRedis, 3_000).catch((err: unknown) => logger.warn({ err }, 'redis not ready; SMS limits run in process'));
const smsLimits = watchLimitsFile({ path: config.SMS_LIMITS_FILE, logger });
const smsLimiter = new TierLimiter({ redis: limitsRedis, limits: smsLimits, logger, prefix: SMS_LIMIT_PREFIX });

const api = await buildApi({
  logger,
  requestLogging: config.LOG_REQUESTS,
  metrics,
  tokens: accounts.tokens,
  adminToken: config.ADMIN_TOKEN,
  bodyLimitBytes: config.BODY_LIMIT_BYTES,
  publicUrl: config.PUBLIC_BASE_URL,
  readiness: [{ name: 'mongo', check: async () => void (await mongo.db.command({ ping: 1 })) }, ...peers.readiness],
  // One line per feature folder of src/api/.
  features: [
    flowsFeature({ flows: peers.ports.flow, accounts: accounts.accounts, flowCacheMaxBytes: config.FLOW_CACHE_MAX_BYTES }),
    filesFeature({ files: peers.ports.file, publicBaseUrl: config.PUBLIC_BASE_URL, maxUploadBytes: config.MAX_UPLOAD_BYTES }),
    adminFeature({ ...accounts, shortener: peers.ports.shortener }),
    surveysFeature({
      surveys: peers.ports.survey,
      shortener: peers.ports.shortener,
      ...accounts,
      displayTimeZone: config.DISPLAY_TIME_ZONE,
      publicBaseUrl: config.PUBLIC_BASE_URL,
    }),
    smsFeature({
      sms: peers.ports.messaging,
      accounts: accounts.accounts,
      nodes: accounts.nodes,
      limiter: smsLimiter,
      idempotency: new MongoIdempotencyKeys(mongo.db, { ttlMs: config.IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000, leaseMs: 2 * 60_000 }),
      clock: systemClock,
      maxPhones: config.SMS_MAX_PHONES_PER_SHARING,
      bodyLimitBytes: config.SMS_SHARING_BODY_LIMIT_BYTES,
      sharingDeadlineMs: config.SMS_SHARING_DEADLINE_MS,
      disabledAccounts: config.SMS_DISABLED_ACCOUNTS,
    }),
  ],
});

// This Redis client and Kafka serve the link listener only, and it works without either (docs/decisions.md).
const redis = createRedis({ url: config.REDIS_URL, logger, name: 'gateway', commandTimeoutMs: 250 });
await waitForRedis(redis, 3_000).catch((err: unknown) => logger.warn({ err }, 'redis not ready; link cache and rate limit run in process'));
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'gateway', logger });
void ensureTopics(kafka, [{ topic: config.CLICKS_TOPIC, numPartitions: 3 }]).catch((err: unknown) =>
  logger.warn({ err }, 'could not ensure the clicks topic'),
);
const producer = createProducer(kafka, { logger });
const clicks = new ClickPublisher(producer, {
  topic: config.CLICKS_TOPIC,
  batchSize: 1000,
  flushIntervalMs: 250,
  maxBuffered: 200_000,
  logger,
});
clicks.start();
const link = await buildLink({
  logger,
  requestLogging: config.LOG_REQUESTS,
  metrics,
  trustProxy: parseTrustProxy(config.TRUST_PROXY),
  publicUrl: config.PUBLIC_SHORTENER_URL,
  links: {
    shortener: peers.ports.shortener,
    links: new LinkResolver(peers.ports.shortener, redis, {
      maxEntries: 100_000,
      ttlMs: config.LINK_CACHE_TTL_MS,
      missTtlMs: 5_000,
      logger,
    }),
    clicks,
    limiter: createShortenLimiter({
      redis,
      points: config.SHORTEN_RATE_LIMIT_POINTS,
      windowSec: config.SHORTEN_RATE_LIMIT_WINDOW_SEC,
      exempt: config.SHORTEN_RATE_LIMIT_EXEMPT,
      logger,
    }),
    redirectStatus: config.REDIRECT_STATUS,
    maxUrlLength: config.MAX_URL_LENGTH,
  },
});

// SIGTERM: stop accepting, answer what is in flight, let kept-alive connections go (2 s for idle ones).
const closeHttp = [gracefulClose(api, { graceMs: 2_000 }), gracefulClose(link, { graceMs: 2_000 })];
await api.listen({ host: config.HOST, port: config.API_PORT });
await link.listen({ host: config.HOST, port: config.LINK_PORT });

onShutdown(logger, [
  { name: 'mongo', close: () => mongo.close() },
  { name: 'grpc-peers', close: () => peers.close() },
  { name: 'redis', close: () => redis.quit() },
  { name: 'sms-limits', close: async () => (smsLimits.close(), void (await limitsRedis.quit())) },
  { name: 'kafka-producer', close: () => producer.disconnect() },
  { name: 'clicks', close: () => clicks.close() },
  // Closed first: both listeners drain at once, while everything they call is still open.
  { name: 'http', close: () => Promise.all(closeHttp.map((close) => close())) },
]);
