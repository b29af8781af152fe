import { env, loadConfig, LOCAL_PORTS, localAddr } from '@feedback/kit-core/runtime';
import { metricsEnv } from '@feedback/kit-metrics';
import { kafkaConnection, kafkaSecurityEnv } from '@feedback/kit-kafka';
import { mongoConnection, mongoSecurityEnv, retentionSweepEnv } from '@feedback/kit-stores';
import { grpcServerEnv } from '@feedback/kit-grpc';
import { isPhoneRegion } from '@feedback/kit-phone';

const readVars = (vars: Record<string, string | undefined>) =>
  loadConfig(
    {
      GRPC_HOST: env.string('0.0.0.0'),
      GRPC_PORT: env.port(LOCAL_PORTS.SURVEY_GRPC_PORT),
      ...metricsEnv(LOCAL_PORTS.SURVEY_METRICS_PORT),
      ...grpcServerEnv(),
      MONGO_URL: env.string(`mongodb://${localAddr('MONGO_PORT')}`),
      ...mongoSecurityEnv,
      MONGO_DB: env.string('survey'),
      FLOW_GRPC_ADDR: env.string(localAddr('FLOW_GRPC_PORT')),
      /** Deadline of each call to the flow service (one name for it in every app). */
      GRPC_DEADLINE_MS: env.int(3_000, 100),
      FLOW_CACHE_ENTRIES: env.int(1_000, 1),
      KAFKA_BROKERS: env.list(localAddr('KAFKA_PORT')),
      ...kafkaSecurityEnv,
      SURVEY_ANSWERED_TOPIC: env.string('survey.answered'),
      /** Survey links are `${PUBLIC_BASE_URL}/s/<token>` (the gateway's API listener). */
      PUBLIC_BASE_URL: env.url(`http://${localAddr('API_PORT')}`),
      /** ISO 3166 region for phone numbers written without a country code. */
      DEFAULT_PHONE_REGION: env.string('TR').refine(isPhoneRegion, 'must be a supported ISO 3166-1 region code, e.g. TR'),
      DEFAULT_LINK_TTL_DAYS: env.int(7, 1).refine((d) => d <= 365, 'must be at most 365'),
      /** Custom attribute names stored in the customer's schema (comma-separated; the active survey query matches schema.TCKN). */
      CUSTOMER_SCHEMA_ATTRIBUTES: env
        .list('TCKN')
        .refine(
          (names) => names.every((n) => /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(n)),
          'must be attribute names (letters, digits, _ and -)',
        ),
      /**
       * Customer fields kept only as keyed hashes (comma-separated custom attribute or schema names,
       * compared without case); `tckn` always is, whatever this says.
       */
      SENSITIVE_CUSTOMER_ATTRIBUTES: env.sensitiveAttributes(),
      ...env.personalDataKeys(),
      /** Erasure requests (data_erasure.proto): published, consumed in its own group, and the services' reports. */
      DATA_ERASURE_REQUESTED_TOPIC: env.string('data.erasure.requested'),
      DATA_ERASURE_PROGRESS_TOPIC: env.string('data.erasure.progress'),
      DATA_ERASURE_GROUP: env.string('survey-data-erasure'),
      DATA_ERASURE_PROGRESS_GROUP: env.string('survey-data-erasure-progress'),
      /** The services that must report before an erasure request is completed (each consumes data.erasure.requested). */
      DATA_ERASURE_SERVICES: env
        .list('survey,messaging,shortener,webhooks')
        .refine(
          (names) => names.length > 0 && names.every((n) => /^[a-z][a-z0-9_-]{0,39}$/.test(n)),
          'must be service names, e.g. survey,messaging',
        ),
      /** Days responses are kept, for accounts without their own; 0: for ever (docs/api.md "Retention"). */
      RESPONSES_RETENTION_DAYS: env.int(730, 0),
      /** Days past its expiry a survey link is kept (it answers 410 meanwhile), then deleted. */
      EXPIRED_LINK_GRACE_DAYS: env.int(30, 0),
      ...retentionSweepEnv,
      ACCOUNT_RETENTION_GROUP: env.string('survey-retention'),
      /** How often unpublished survey.answered events are retried. */
      OUTBOX_INTERVAL_MS: env.int(30_000, 100),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );

/** The variables, with the store and broker connections checked together and their files (CAs, passwords) read once. */
export const loadEnv = (vars: Record<string, string | undefined> = process.env) => {
  const config = readVars(vars);
  return { ...config, mongo: mongoConnection(config), kafka: kafkaConnection(config) };
};
