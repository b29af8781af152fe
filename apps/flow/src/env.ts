import { env, loadConfig } from '@feedback/kit-core';

export const loadEnv = (vars: Record<string, string | undefined> = process.env) =>
  loadConfig(
    {
      GRPC_HOST: env.string('0.0.0.0'),
      GRPC_PORT: env.port(50052),
      MONGO_URL: env.string('mongodb://127.0.0.1:27017'),
      MONGO_DB: env.string('flow'),
      FLOW_CACHE_ENTRIES: env.int(10_000, 1),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );
