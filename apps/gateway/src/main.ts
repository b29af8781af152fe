import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '@feedback/kit-core';
import { createLogger, onShutdown, stdoutDestination } from '@feedback/kit-core/runtime';
import { mongoLimitsStore, redisLimitsChanges, startLiveLimits, TierLimiter } from '@feedback/kit-limits';
import { startMetricsListener } from '@feedback/kit-metrics';
import { connectMongo, createRedis, ensureIndexes, waitForRedis } from '@feedback/kit-stores';
import { createKafka } from '@feedback/kit-kafka';
import { kafkaRetentionEvents } from './accounts/adapters/kafka/retention.publisher.js';
import { gatewayIndexes } from './accounts/adapters/mongo/indexes.js';
import { consoleSessions as createConsoleSessions } from './accounts/domain/sessions.use-cases.js';
import { bootstrapOperator } from './accounts/domain/users.use-cases.js';
import { adminFeature } from './api/admin/admin.feature.js';
import { filesFeature } from './api/files/files.feature.js';
import { flowsFeature } from './api/flows/flows.feature.js';
import { linkStatsFeature } from './api/link-stats/link-stats.feature.js';
import { linksFeature } from './api/links/links.feature.js';
import { SMS_LIMIT_PREFIX } from './api/sms/sharing-limit.hooks.js';
import { meteredLimiter } from './api/sms/sharing-limit.metrics.js';
import { privacyFeature } from './api/privacy/privacy.feature.js';
import { responsesFeature } from './api/responses/responses.feature.js';
import { smsFeature } from './api/sms/sms.feature.js';
import { smsLimitsFeature } from './api/sms-limits/sms-limits.feature.js';
import { surveysFeature } from './api/surveys/surveys.feature.js';
import { webhooksFeature } from './api/webhooks/webhooks.feature.js';
import { consoleFeature } from './console/console.feature.js';
import { oidcSignIn } from './console/oidc.client.js';
import { loadEnv } from './env.js';
import { connectPeers } from './grpc-peers.js';
import { buildApi } from './http/build-api.js';
import { gracefulClose } from './http/graceful-close.js';
import { createMetrics } from './http/metrics.js';
import { startLinkThread } from './links/link-thread.js';
import { PEERS } from './peers.js';
import { accountDirectory, accountsDeps, flowViews, peopleDeps, retentionDeps, smsIdempotencyKeys } from './wiring.js';

// The one wiring place of the gateway.
const config = loadEnv();
const stdout = stdoutDestination();
const logger = createLogger('gateway', config.LOG_LEVEL, {}, stdout);
// First: a process stuck connecting to its stores still shows it on its metrics port.
const metricsListener = await startMetricsListener({ app: 'gateway', host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
const mongo = await connectMongo({ ...config.mongo, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, gatewayIndexes);
const peers = connectPeers(PEERS, config, {
  deadlineMs: config.GRPC_DEADLINE_MS,
  streamDeadlineMs: config.FILE_STREAM_DEADLINE_MS,
  logger,
});
const metrics = createMetrics('gateway');

const infra = { db: mongo.db, tokenCacheTtlMs: config.TOKEN_CACHE_TTL_MS, idempotencyKeyTtlHours: config.IDEMPOTENCY_KEY_TTL_HOURS };
const accounts = accountsDeps(infra);
const retentionEvents = kafkaRetentionEvents(
  createKafka({ ...config.kafka, clientId: 'gateway', logger }),
  config.ACCOUNT_RETENTION_TOPIC,
  logger,
);
const retention = retentionDeps(infra, accounts, retentionEvents, {
  messages: config.MESSAGES_RETENTION_DAYS,
  responses: config.RESPONSES_RETENTION_DAYS,
  webhook_deliveries: config.WEBHOOK_DELIVERIES_RETENTION_DAYS,
});

// The SMS sharing limit: its own Redis client (no offline queue, short timeout), shared by every
// gateway process; while Redis is away each process limits on its own (kit-limits README).
const limitsRedis = createRedis({ ...config.redis, logger, name: 'gateway-limits', commandTimeoutMs: 300 });
await waitForRedis(limitsRedis, 3_000).catch((err: unknown) => logger.warn({ err }, 'redis not ready; SMS limits run in process'));
// The limits are a live setting: stored in this database (over SMS_LIMITS_FILE), changes announced
// on a Redis channel named after it (a subscribed connection does nothing else), re-read every 30 s.
const smsLimits = await startLiveLimits({
  store: mongoLimitsStore(mongo.db, logger),
  changes: redisLimitsChanges({
    publisher: limitsRedis,
    subscriber: createRedis({ ...config.redis, logger, name: 'gateway-limits-changes' }),
    channel: `sms-limits:${config.MONGO_DB}`,
    logger,
  }),
  file: config.SMS_LIMITS_FILE,
  logger,
});
const smsLimiter = new TierLimiter({ redis: limitsRedis, limits: smsLimits.limits, logger, prefix: SMS_LIMIT_PREFIX });

// The console's people; failed sign-ins are counted on the same Redis client (its outage: in process).
const people = peopleDeps(infra, accounts, {
  redis: limitsRedis,
  logger,
  limits: { perEmail: config.SIGN_IN_FAILURES_PER_EMAIL, perIp: config.SIGN_IN_FAILURES_PER_IP, windowSec: 15 * 60 },
  idleHours: config.SESSION_IDLE_HOURS,
  maxDays: config.SESSION_MAX_DAYS,
  publicBaseUrl: config.PUBLIC_BASE_URL,
});
/** Sign-in, sessions and invites (accounts/domain/people.ts ConsoleSessions), for the console's feature. */
export const consoleSessions = createConsoleSessions(people);
if (config.bootstrapOperator) {
  const outcome = await bootstrapOperator(people, { ...config.bootstrapOperator, name: 'Operator' });
  logger.info({ outcome }, 'bootstrap operator (BOOTSTRAP_OPERATOR_EMAIL) checked');
}

let draining = false;
const api = await buildApi({
  logger,
  requestLogging: config.LOG_REQUESTS,
  metrics,
  tokens: accounts.tokens,
  adminToken: config.ADMIN_TOKEN,
  bodyLimitBytes: config.BODY_LIMIT_BYTES,
  publicUrl: config.PUBLIC_BASE_URL,
  draining: () => draining,
  readiness: [{ name: 'mongo', check: async () => void (await mongo.db.command({ ping: 1 })) }, ...peers.readiness],
  // One line per feature folder of src/api/.
  features: [
    flowsFeature({
      flows: peers.ports.flow,
      accounts: accounts.accounts,
      flowViews: flowViews(peers.ports.flow, config.FLOW_CACHE_MAX_BYTES),
    }),
    filesFeature({ files: peers.ports.file, publicBaseUrl: config.PUBLIC_BASE_URL, maxUploadBytes: config.MAX_UPLOAD_BYTES }),
    adminFeature({ ...accounts, shortener: peers.ports.shortener, retention, people }),
    surveysFeature({
      surveys: peers.ports.survey,
      shortener: peers.ports.shortener,
      sms: peers.ports.messaging,
      ...accounts,
      displayTimeZone: config.DISPLAY_TIME_ZONE,
      publicBaseUrl: config.PUBLIC_BASE_URL,
    }),
    smsFeature({
      sms: peers.ports.messaging,
      accounts: accounts.accounts,
      nodes: accounts.nodes,
      limiter: meteredLimiter(smsLimiter, 'sms_sharing'),
      idempotency: smsIdempotencyKeys(infra),
      clock: systemClock,
      maxPhones: config.SMS_MAX_PHONES_PER_SHARING,
      bodyLimitBytes: config.SMS_SHARING_BODY_LIMIT_BYTES,
      sharingDeadlineMs: config.SMS_SHARING_DEADLINE_MS,
      cancelDeadlineMs: config.SMS_CANCEL_DEADLINE_MS,
      disabledAccounts: config.SMS_DISABLED_ACCOUNTS,
    }),
    webhooksFeature({ webhooks: peers.ports.webhooks, accounts: accounts.accounts }),
    responsesFeature({
      surveys: peers.ports.survey,
      flows: peers.ports.flow,
      accounts: accounts.accounts,
      campaigns: peers.ports.messaging,
    }),
    privacyFeature({ privacy: peers.ports.survey, accounts: accounts.accounts }),
    linkStatsFeature({ shortener: peers.ports.shortener, accounts: accounts.accounts }),
    linksFeature({ shortener: peers.ports.shortener, accounts: accounts.accounts }),
    consoleFeature({
      sessions: consoleSessions,
      sms: peers.ports.messaging,
      accounts: accounts.accounts,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      displayTimeZone: config.DISPLAY_TIME_ZONE,
      cancelDeadlineMs: config.SMS_CANCEL_DEADLINE_MS,
      clock: systemClock,
      admin: {
        people,
        accountsAdmin: accounts,
        directory: accountDirectory(infra),
        smsProvider: peers.ports.messaging,
        smsLimits: smsLimits.limits,
        smsUsage: smsLimiter,
      },
      // Single sign-on (OIDC_*): the provider is first asked at the first sign-in, so its outage never stops a start.
      sso: config.oidc ? oidcSignIn(config.oidc, logger) : undefined,
      files: peers.ports.file,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      smsData: peers.ports.messaging,
      responses: peers.ports.survey,
      flows: peers.ports.flow,
      webhooks: peers.ports.webhooks,
    }),
    smsLimitsFeature({ limits: smsLimits.limits, usage: smsLimiter, accounts: accounts.accounts }),
  ],
});

// SIGTERM: stop accepting, answer what is in flight, let kept-alive connections go (2 s for idle ones).
const closeApi = gracefulClose(api, { graceMs: 2_000 });
// The link listener ({shortener_url}) runs in a thread of its own (docs/decisions.md), wired in
// link-thread.main; a crash of that thread takes the process down like a crash of this one. It
// listens before the API does, so the API's /ready answering means both listeners are up.
const linkThread = await startLinkThread(new URL(`./link-thread.main${extname(fileURLToPath(import.meta.url))}`, import.meta.url), {
  log: (line) => stdout.write(line),
  tokens: accounts.tokens,
  onCrash: (err) =>
    setImmediate(() => {
      throw err;
    }),
});
// The link thread's registry is its own: its requests and gRPC calls are asked for at each scrape.
metricsListener.include(() => linkThread.metrics());
await api.listen({ host: config.HOST, port: config.API_PORT });

// The metrics listener closes last: a scrape during the drain still answers.
onShutdown(logger, [
  metricsListener,
  { name: 'mongo', close: () => mongo.close() },
  { name: 'grpc-peers', close: () => peers.close() },
  { name: 'retention-events', close: () => retentionEvents.close() },
  { name: 'sms-limits', close: async () => (await smsLimits.close(), void (await limitsRedis.quit())) },
  // Closed first: both listeners drain at once, while everything they call is still open.
  { name: 'http', close: () => Promise.all([closeApi(), linkThread.close()]) },
  // First of all: /ready answers 503 from here on.
  { name: 'readiness', close: () => void (draining = true) },
]);
