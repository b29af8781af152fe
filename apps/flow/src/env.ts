import { env, loadConfig, LOCAL_PORTS, localAddr } from '@feedback/kit-core/runtime';
import { metricsEnv } from '@feedback/kit-metrics';
import { mongoConnection, mongoSecurityEnv } from '@feedback/kit-stores';
import { grpcServerEnv } from '@feedback/kit-grpc';

const readVars = (vars: Record<string, string | undefined>) =>
  loadConfig(
    {
      GRPC_HOST: env.string('0.0.0.0'),
      GRPC_PORT: env.port(LOCAL_PORTS.FLOW_GRPC_PORT),
      ...metricsEnv(LOCAL_PORTS.FLOW_METRICS_PORT),
      ...grpcServerEnv(),
      MONGO_URL: env.string(`mongodb://${localAddr('MONGO_PORT')}`),
      ...mongoSecurityEnv,
      MONGO_DB: env.string('flow'),
      FLOW_CACHE_ENTRIES: env.int(10_000, 1),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );

/** The variables, with the store and broker connections checked together and their files (CAs, passwords) read once. */
export const loadEnv = (vars: Record<string, string | undefined> = process.env) => {
  const config = readVars(vars);
  return { ...config, mongo: mongoConnection(config) };
};
