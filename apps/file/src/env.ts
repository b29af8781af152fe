import { env, loadConfig, LOCAL_PORTS, localAddr } from '@feedback/kit-core/runtime';
import { metricsEnv } from '@feedback/kit-metrics';
import { kafkaConnection, kafkaSecurityEnv } from '@feedback/kit-kafka';
import { mongoConnection, mongoSecurityEnv } from '@feedback/kit-stores';
import { grpcServerEnv } from '@feedback/kit-grpc';

const DAY_SECONDS = 24 * 60 * 60;

const readVars = (vars: Record<string, string | undefined>) =>
  loadConfig(
    {
      GRPC_HOST: env.string('0.0.0.0'),
      GRPC_PORT: env.port(LOCAL_PORTS.FILE_GRPC_PORT),
      ...metricsEnv(LOCAL_PORTS.FILE_METRICS_PORT),
      /** GOAWAY after this connection age so callers re-resolve; the grace outlives the gateway's upload deadline (FILE_STREAM_DEADLINE_MS). */
      ...grpcServerEnv({ maxConnectionAgeGraceMs: 3_600_000 }),
      MONGO_URL: env.string(`mongodb://${localAddr('MONGO_PORT')}`),
      ...mongoSecurityEnv,
      MONGO_DB: env.string('file'),
      S3_ENDPOINT: env.url('http://127.0.0.1:9000'),
      S3_ACCESS_KEY: env.string(),
      S3_SECRET_KEY: env.string(),
      S3_REGION: env.string('us-east-1'),
      S3_BUCKET: env.string('feedback-files'),
      /** Multipart part size: the memory one upload holds in this service. */
      S3_PART_SIZE_BYTES: env.int(8 * 1024 * 1024, 5 * 1024 * 1024),
      /** HTTP/2 flow-control window per upload stream (see grpc/flow-control.ts). */
      GRPC_FLOW_CONTROL_WINDOW_BYTES: env.int(1024 * 1024, 65_535),
      KAFKA_BROKERS: env.list(localAddr('KAFKA_PORT')),
      ...kafkaSecurityEnv,
      FILE_UPLOADED_TOPIC: env.string('file.uploaded'),
      FILE_EXPIRED_TOPIC: env.string('file.expired'),
      FILE_PROCESSED_TOPIC: env.string('file.processed'),
      MAX_UPLOAD_BYTES: env.int(1024 * 1024 * 1024, 1),
      FILE_RETENTION_SECONDS: env.int(7 * DAY_SECONDS, 1),
      EXPIRY_INTERVAL_MS: env.int(60_000, 100),
      EXPIRY_LEASE_MS: env.int(5 * 60_000, 1_000),
      EXPIRY_BATCH: env.int(100, 1),
      /** Unfinished multipart uploads older than this are aborted; above the gateway's stream deadline (1 h). */
      STALE_UPLOAD_SECONDS: env.int(6 * 60 * 60, 60),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );

/** The variables, with the store and broker connections checked together and their files (CAs, passwords) read once. */
export const loadEnv = (vars: Record<string, string | undefined> = process.env) => {
  const config = readVars(vars);
  return { ...config, mongo: mongoConnection(config), kafka: kafkaConnection(config) };
};
