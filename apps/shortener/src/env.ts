import { env, loadConfig, LOCAL_PORTS, localAddr } from '@feedback/kit-core/runtime';
import { metricsEnv } from '@feedback/kit-metrics';
import { kafkaConnection, kafkaSecurityEnv } from '@feedback/kit-kafka';
import { mongoConnection, mongoSecurityEnv } from '@feedback/kit-stores';
import { grpcServerEnv } from '@feedback/kit-grpc';

const readVars = (vars: Record<string, string | undefined>) =>
  loadConfig(
    {
      GRPC_HOST: env.string('0.0.0.0'),
      GRPC_PORT: env.port(LOCAL_PORTS.SHORTENER_GRPC_PORT),
      ...metricsEnv(LOCAL_PORTS.SHORTENER_METRICS_PORT),
      ...grpcServerEnv(),
      MONGO_URL: env.string(`mongodb://${localAddr('MONGO_PORT')}`),
      ...mongoSecurityEnv,
      MONGO_DB: env.string('shortener'),
      KAFKA_BROKERS: env.list(localAddr('KAFKA_PORT')),
      ...kafkaSecurityEnv,
      /** The service's own short domain (the gateway's link listener), as short URLs start. */
      PUBLIC_SHORTENER_URL: env.url(`http://${localAddr('LINK_PORT')}`).transform((u) => u.replace(/\/+$/, '')),
      SHORT_CODE_LENGTH: env.int(7, 6).refine((n) => n <= 32, 'must be at most 32'),
      MAX_URL_LENGTH: env.int(2048, 32),
      /** How long a domain lookup is kept (a domain added or removed on another replica shows after this). */
      DOMAIN_CACHE_TTL_MS: env.int(5_000, 0),
      CLICKS_TOPIC: env.string('link.clicked'),
      CLICKS_GROUP: env.string('shortener-clicks'),
      CLICKS_SESSION_TIMEOUT_MS: env.int(30_000, 6_000),
      /** Erasure of one person's data (data_erasure.proto): requests consumed in the shortener's own group, reports published. */
      DATA_ERASURE_REQUESTED_TOPIC: env.string('data.erasure.requested'),
      DATA_ERASURE_PROGRESS_TOPIC: env.string('data.erasure.progress'),
      DATA_ERASURE_GROUP: env.string('shortener-data-erasure'),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );

/** The variables, with the store and broker connections checked together and their files (CAs, passwords) read once. */
export const loadEnv = (vars: Record<string, string | undefined> = process.env) => {
  const config = readVars(vars);
  return { ...config, mongo: mongoConnection(config), kafka: kafkaConnection(config) };
};
