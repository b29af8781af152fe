import { createLogger, onShutdown } from '@feedback/kit-core/runtime';
import { grpcListenOptions, memoizeSerialization, startGrpcServer } from '@feedback/kit-grpc';
import { startMetricsListener } from '@feedback/kit-metrics';
import { connectMongo, ensureIndexes } from '@feedback/kit-stores';
import { FlowServiceService } from '@feedback/proto/feedback/flow/v1/flow';
import { flowIndexes } from './adapters/mongo/indexes.js';
import { loadEnv } from './env.js';
import { flowHandlers } from './grpc/flow.handlers.js';
import { flowServiceDeps } from './wiring.js';

// The one wiring place of the flow service.
const config = loadEnv();
const logger = createLogger('flow', config.LOG_LEVEL);
// First: a process stuck connecting to its stores still shows it on its metrics port.
const metrics = await startMetricsListener({ app: 'flow', host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
const mongo = await connectMongo({ ...config.mongo, dbName: config.MONGO_DB, logger });
await ensureIndexes(mongo.db, flowIndexes);

const deps = flowServiceDeps({ db: mongo.db, flowCacheEntries: config.FLOW_CACHE_ENTRIES });
const server = await startGrpcServer({
  ...grpcListenOptions(config),
  logger,
  services: [{ definition: memoizeSerialization(FlowServiceService, ['getFlow']), implementation: flowHandlers(deps) }],
});
logger.info({ port: server.port }, 'flow service listening');

// The metrics listener closes last: a scrape during the drain still answers.
onShutdown(logger, [metrics, { name: 'mongo', close: () => mongo.close() }, { name: 'grpc', close: () => server.shutdown() }]);
