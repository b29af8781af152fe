import { env, loadConfig, LOCAL_PORTS, localAddr } from '@feedback/kit-core/runtime';
import { grpcServerEnv } from '@feedback/kit-grpc';
import { kafkaConnection, kafkaSecurityEnv } from '@feedback/kit-kafka';
import { metricsEnv } from '@feedback/kit-metrics';
import { mongoConnection, mongoSecurityEnv, retentionSweepEnv } from '@feedback/kit-stores';
import { z } from 'zod';
import { parseCidrs } from './adapters/http/address-guard.js';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from './domain/retry-schedule.js';

const parsed = <T>(parse: (v: string) => T, fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      try {
        return parse(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

const readVars = (vars: Record<string, string | undefined>) =>
  loadConfig(
    {
      GRPC_HOST: env.string('0.0.0.0'),
      GRPC_PORT: env.port(LOCAL_PORTS.WEBHOOKS_GRPC_PORT),
      ...metricsEnv(LOCAL_PORTS.WEBHOOKS_METRICS_PORT),
      ...grpcServerEnv(),
      MONGO_URL: env.string(`mongodb://${localAddr('MONGO_PORT')}`),
      ...mongoSecurityEnv,
      MONGO_DB: env.string('webhooks'),
      KAFKA_BROKERS: env.list(localAddr('KAFKA_PORT')),
      ...kafkaSecurityEnv,
      SURVEY_ANSWERED_TOPIC: env.string('survey.answered'),
      SMS_STATUS_TOPIC: env.string('sms.status'),
      FILE_EXPIRED_TOPIC: env.string('file.expired'),
      FILE_PROCESSED_TOPIC: env.string('file.processed'),
      SHARING_COMPLETED_TOPIC: env.string('sharing.completed'),
      WEBHOOKS_EVENTS_GROUP: env.string('webhooks-events'),
      /** Seals endpoint secrets at rest (AES-256-GCM): 32 random bytes in base64. Required. */
      WEBHOOKS_SECRET_KEY: env.key32(),
      /** Keys that sealed secrets before the current one (comma-separated): they still open them. */
      WEBHOOKS_SECRET_PREVIOUS_KEYS: env.key32List(),
      /** Plain http endpoints (on-premise networks); https only by default. */
      WEBHOOKS_ALLOW_HTTP: env.bool(false),
      /** Ranges reachable although private or loopback, e.g. 10.20.0.0/16 (the metadata address never is). */
      WEBHOOKS_ALLOWED_CIDRS: parsed(parseCidrs, ''),
      /** Delays after each failed attempt, e.g. 5s,30s,2m (docs/api.md "Webhooks"). */
      WEBHOOKS_RETRY_SCHEDULE: parsed(parseRetrySchedule, DEFAULT_RETRY_SCHEDULE_MS.map((ms) => `${ms}ms`).join(',')),
      /** An endpoint failing continuously this long is disabled. */
      WEBHOOKS_DISABLE_AFTER_MS: env.int(86_400_000, 1_000),
      /** A 2xx within this is a success. */
      WEBHOOKS_TIMEOUT_MS: env.int(10_000, 100),
      /**
       * How long a claimed delivery is held by its sender: a killed sender's deliveries are retried
       * after it. Must exceed WEBHOOKS_TIMEOUT_MS, so a live sender always finishes within it.
       */
      WEBHOOKS_LEASE_MS: env.int(60_000, 1_000),
      /** Attempts in flight at once per process. */
      WEBHOOKS_CONCURRENCY: env.int(16, 1),
      /** How long an idle sender waits before looking for due deliveries again. */
      WEBHOOKS_POLL_MS: env.int(250, 10),
      /** Days the delivery log is kept, for accounts without their own; 0: for ever (docs/api.md "Retention"). */
      WEBHOOK_DELIVERIES_RETENTION_DAYS: env.int(30, 0),
      ...retentionSweepEnv,
      ACCOUNT_RETENTION_GROUP: env.string('webhooks-retention'),
      /** Erasure of one person's data (data_erasure.proto): requests consumed in the webhooks service's own group, reports published. */
      DATA_ERASURE_REQUESTED_TOPIC: env.string('data.erasure.requested'),
      DATA_ERASURE_PROGRESS_TOPIC: env.string('data.erasure.progress'),
      DATA_ERASURE_GROUP: env.string('webhooks-data-erasure'),
      /** Keys of the subject hashes stored with each delivery (kit-core PersonalDataProtector). */
      ...env.personalDataKeys(),
      /** Endpoints an account may have: a create past it is 409 / 13050. */
      WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT: env.int(20, 1),
      /** Test events an account may send per clock minute: past it, 429 with Retry-After. */
      WEBHOOKS_TEST_SENDS_PER_MINUTE: env.int(10, 1),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );

/** The variables, with the store and broker connections checked together and their files (CAs, passwords) read once. */
export const loadEnv = (vars: Record<string, string | undefined> = process.env) => {
  const config = readVars(vars);
  if (config.WEBHOOKS_LEASE_MS <= config.WEBHOOKS_TIMEOUT_MS)
    throw new Error('invalid configuration: WEBHOOKS_LEASE_MS must be above WEBHOOKS_TIMEOUT_MS');
  return { ...config, mongo: mongoConnection(config), kafka: kafkaConnection(config) };
};
