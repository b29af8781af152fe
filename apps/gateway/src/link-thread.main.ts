import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';
import { closeAll, createLogger } from '@feedback/kit-core/runtime';
import { createKafka, createProducer, ensureTopics } from '@feedback/kit-kafka';
import { createRedis, waitForRedis } from '@feedback/kit-stores';
import { loadEnv } from './env.js';
import { gracefulClose } from './http/graceful-close.js';
import { createMetrics } from './http/metrics.js';
import { parseTrustProxy } from './http/trust-proxy.js';
import { clickDetailsOf } from './links/click-details.js';
import { ClickFilter } from './links/click-filter.js';
import { ClickLimit } from './links/click-limit.js';
import { ClickPublisher } from './links/click.publisher.js';
import { clientIpOf } from './links/client-ip.js';
import { openGeoIpCountries } from './links/geoip.country.js';
import { LinkResolver } from './links/link.resolver.js';
import { buildLink } from './links/link-listener.js';
import type { FromLinkThread, ToLinkThread } from './links/link-thread.js';
import { shortenerPeer } from './links/links.client.js';
import { MainThreadTokens } from './links/main-thread-tokens.js';
import { QrCodeCache } from './links/qr-code.cache.js';
import { RecentClicks } from './links/recent-clicks.js';
import { createShortenLimiter } from './links/shorten.limiter.js';

// The wiring place of the link listener's thread, started by main.ts (links/link-thread.ts).
// Nothing here enters an async request context: the link routes pass request ids themselves.
if (!parentPort) throw new Error('link-thread.main runs as a worker thread of the gateway (main.ts)');
const parent = parentPort;
const config = loadEnv();
// Its lines go to the main thread, the one writer of stdout (links/link-thread.ts).
const toMain = { write: (line: string) => parent.postMessage({ type: 'log', line } satisfies FromLinkThread) };
const logger = createLogger('gateway', config.LOG_LEVEL, {}, toMain).child({ thread: 'link' });
// Process metrics (memory, CPU) come from the main thread; this one adds its requests.
const metrics = createMetrics('gateway', { processMetrics: false });
const shortener = shortenerPeer.connect(config.SHORTENER_GRPC_ADDR, {
  deadlineMs: config.GRPC_DEADLINE_MS,
  streamDeadlineMs: config.GRPC_DEADLINE_MS,
  logger,
});

// The link listener works without Redis and Kafka (docs/decisions.md "Short links").
const redis = createRedis({ ...config.redis, logger, name: 'gateway-links', commandTimeoutMs: 250 });
await waitForRedis(redis, 3_000).catch((err: unknown) => logger.warn({ err }, 'redis not ready; link cache and rate limit run in process'));
const kafka = createKafka({ ...config.kafka, clientId: 'gateway-links', logger });
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
const trustProxy = parseTrustProxy(config.TRUST_PROXY);
const clientIp = clientIpOf(trustProxy);
// A click's country, where the deployment provides it (both off by default).
const geoip = config.LINK_GEOIP_DATABASE ? await openGeoIpCountries(config.LINK_GEOIP_DATABASE) : undefined;
// A person's first tap of a code in a minute is a click; bots, previews and repeats are not.
const personClicks = new ClickFilter({
  publisher: clicks,
  recent: new RecentClicks(redis, { windowMs: 60_000, maxChars: 32_000_000, logger }),
  clientIp,
  details: clickDetailsOf({ countryHeader: config.LINK_COUNTRY_HEADER, geoip, clientIp }),
});
// POST /shorten naming a customer domain checks an API token: the main thread looks it up.
const tokens = new MainThreadTokens((m) => parent.postMessage(m), { timeoutMs: config.GRPC_DEADLINE_MS, logger });
const link = await buildLink({
  logger,
  requestLogging: config.LOG_REQUESTS,
  metrics,
  trustProxy,
  publicUrl: config.PUBLIC_SHORTENER_URL,
  links: {
    shortener: shortener.port,
    links: new LinkResolver(shortener.port, redis, {
      maxEntries: 100_000,
      ttlMs: config.LINK_CACHE_TTL_MS,
      missTtlMs: 5_000,
      logger,
    }),
    clicks: personClicks,
    limit: new ClickLimit(redis, logger),
    limiter: createShortenLimiter({
      redis,
      points: config.SHORTEN_RATE_LIMIT_POINTS,
      windowSec: config.SHORTEN_RATE_LIMIT_WINDOW_SEC,
      exempt: config.SHORTEN_RATE_LIMIT_EXEMPT,
      logger,
    }),
    redirectStatus: config.REDIRECT_STATUS,
    maxUrlLength: config.MAX_URL_LENGTH,
    tokens,
  },
  // Images of up to 1000 px are a few KiB each (PNG) or less (SVG).
  qr: { codes: new QrCodeCache(shortener.port, { maxBytes: 32 * 1024 * 1024, ttlMs: 3_600_000, missTtlMs: 5_000 }) },
});
const closeHttp = gracefulClose(link, { graceMs: 2_000 });
await link.listen({ host: config.HOST, port: config.LINK_PORT });

// Closed in reverse order: the listener drains first, while everything it calls is still open.
const closers = [
  { name: 'link-shortener-client', close: () => shortener.close() },
  { name: 'link-redis', close: () => redis.quit() },
  { name: 'link-kafka-producer', close: () => producer.disconnect() },
  { name: 'clicks', close: () => clicks.close() },
  { name: 'click-decisions', close: () => personClicks.drained() },
  { name: 'link-http', close: closeHttp },
];
parent.on('message', (m: ToLinkThread) => {
  if (m.type === 'metrics') {
    void metrics.registry
      .getMetricsAsJSON()
      .then((json) => parent.postMessage({ type: 'metrics', id: m.id, metrics: json } satisfies FromLinkThread));
  } else if (m.type === 'close') {
    void closeAll(logger, closers).then(() => process.exit(0));
  } else {
    tokens.answer(m);
  }
});
parent.postMessage({ type: 'listening', port: (link.server.address() as AddressInfo).port } satisfies FromLinkThread);
