import { env, loadConfig, LOCAL_PORTS, localAddr } from '@feedback/kit-core';
import { grpcServerEnv } from '@feedback/kit-grpc';

export const loadEnv = (vars: Record<string, string | undefined> = process.env) =>
  loadConfig(
    {
      GRPC_HOST: env.string('0.0.0.0'),
      GRPC_PORT: env.port(LOCAL_PORTS.FLOW_GRPC_PORT),
      ...grpcServerEnv(),
      MONGO_URL: env.string(`mongodb://${localAddr('MONGO_PORT')}`),
      MONGO_DB: env.string('flow'),
      FLOW_CACHE_ENTRIES: env.int(10_000, 1),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );
