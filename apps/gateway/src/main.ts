import { randomUUID } from 'node:crypto';
import { createLogger, onShutdown } from '@feedback/kit-core';
import { connectMongo, ensureIndexes } from '@feedback/kit-stores';
import { CachedTokenRepository } from './adapters/cached-token.repository.js';
import { connectPeers } from './adapters/grpc-peers.js';
import { MongoAccountRepository } from './adapters/mongo/account.repository.js';
import { gatewayIndexes } from './adapters/mongo/indexes.js';
import { MongoNodeRepository } from './adapters/mongo/node.repository.js';
import { MongoTokenRepository } from './adapters/mongo/token.repository.js';
import { loadEnv } from './env.js';
import { buildApi } from './http/build-api.js';
import { buildLink } from './http/build-link.js';
import { createMetrics } from './http/metrics.js';

// The one wiring place of the gateway.
const config = loadEnv();
const logger = createLogger('gateway', config.LOG_LEVEL);
const mongo = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, gatewayIndexes);
const peers = connectPeers({ flowAddr: config.FLOW_GRPC_ADDR, deadlineMs: config.GRPC_DEADLINE_MS, logger });
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
  readiness: [
    { name: 'mongo', check: async () => void (await mongo.db.command({ ping: 1 })) },
    ...peers.readiness,
  ],
});
const link = await buildLink({ logger, metrics });

await api.listen({ host: config.HOST, port: config.API_PORT });
await link.listen({ host: config.HOST, port: config.LINK_PORT });

onShutdown(logger, [
  { name: 'mongo', close: () => mongo.close() },
  { name: 'grpc-peers', close: () => peers.close() },
  { name: 'link-http', close: () => link.close() },
  { name: 'api-http', close: () => api.close() },
]);
