import { env, loadConfig } from '@feedback/kit-core';
import { z } from 'zod';

export const loadEnv = (vars: Record<string, string | undefined> = process.env) =>
  loadConfig(
    {
      HOST: env.string('0.0.0.0'),
      API_PORT: env.port(8080),
      LINK_PORT: env.port(8081),
      PUBLIC_BASE_URL: env.url('http://127.0.0.1:8080'),
      PUBLIC_SHORTENER_URL: env.url('http://127.0.0.1:8081'),
      ADMIN_TOKEN: z.string().min(24, 'must be at least 24 characters'),
      MONGO_URL: env.string('mongodb://127.0.0.1:27017'),
      MONGO_DB: env.string('gateway'),
      FLOW_GRPC_ADDR: env.string('127.0.0.1:50052'),
      GRPC_DEADLINE_MS: env.int(5000, 1),
      BODY_LIMIT_BYTES: env.int(1024 * 1024, 1024),
      TOKEN_CACHE_TTL_MS: env.int(30_000),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );

export type GatewayEnv = ReturnType<typeof loadEnv>;
