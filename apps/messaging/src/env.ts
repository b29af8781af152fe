import { env, loadConfig, LOCAL_PORTS, localAddr } from '@feedback/kit-core/runtime';
import { metricsEnv } from '@feedback/kit-metrics';
import { kafkaConnection, kafkaSecurityEnv } from '@feedback/kit-kafka';
import { mongoConnection, mongoSecurityEnv, retentionSweepEnv } from '@feedback/kit-stores';
import { grpcServerEnv } from '@feedback/kit-grpc';
import { isPhoneRegion } from '@feedback/kit-phone';
import { z } from 'zod';
import { AppError } from '@feedback/kit-core';
import { parseSendWindow } from './shared/domain/send-window.js';

const readVars = (vars: Record<string, string | undefined>) =>
  loadConfig(
    {
      GRPC_HOST: env.string('0.0.0.0'),
      GRPC_PORT: env.port(LOCAL_PORTS.MESSAGING_GRPC_PORT),
      ...metricsEnv(LOCAL_PORTS.MESSAGING_METRICS_PORT),
      ...grpcServerEnv(),
      MONGO_URL: env.string(`mongodb://${localAddr('MONGO_PORT')}`),
      ...mongoSecurityEnv,
      MONGO_DB: env.string('messaging'),
      KAFKA_BROKERS: env.list(localAddr('KAFKA_PORT')),
      ...kafkaSecurityEnv,
      SMS_DISPATCH_TOPIC: env.string('sms.dispatch'),
      SMS_STATUS_TOPIC: env.string('sms.status'),
      /** A sharing's first messages are all settled (status/domain/sharing-completion.use-cases.ts). */
      SHARING_COMPLETED_TOPIC: env.string('sharing.completed'),
      SMS_DISPATCH_GROUP: env.string('messaging-sms-dispatch'),
      /** Attempts of one recipient (provider or peer down) before its event is dead-lettered. */
      SMS_DISPATCH_MAX_ATTEMPTS: env.int(6, 1),
      /** sms.dispatch events of one partition handled at once (README "Throughput"). */
      SMS_DISPATCH_CONCURRENCY: env.int(8, 1),
      /** sms.dispatch events handled as one batch (a few database writes for the lot); 0: one event per batch. */
      SMS_DISPATCH_BATCH_SIZE: env.int(100, 0),
      /** Partitions of sms.dispatch one process handles at once. */
      SMS_DISPATCH_PARTITIONS_CONCURRENTLY: env.int(2, 1),
      /**
       * How long the group waits for a silent dispatcher (killed, or cut off) before its partitions
       * move to the others; at least the broker's group.min.session.timeout.ms (6 s by default).
       */
      SMS_DISPATCH_SESSION_TIMEOUT_MS: env.int(30_000, 6_000),
      /**
       * The small sharings' lane (README "Fair dispatch between accounts"): a sharing of at most this
       * many recipients (a scheduled slice too) is published to SMS_DISPATCH_PRIORITY_TOPIC, read by
       * its own consumer group, so it never queues behind a large sharing's backlog; 0: no lane.
       */
      SMS_DISPATCH_PRIORITY_MAX_RECIPIENTS: env.int(100, 0),
      /** Default `<SMS_DISPATCH_TOPIC>.priority`. */
      SMS_DISPATCH_PRIORITY_TOPIC: z.string().min(1).optional(),
      /** Default `<SMS_DISPATCH_GROUP>.priority`. */
      SMS_DISPATCH_PRIORITY_GROUP: z.string().min(1).optional(),
      /**
       * How long a dispatch waits for a provider that is not idempotent before it leaves the
       * hand-over running and moves on (README "Fair dispatch between accounts"); 0: always waits.
       */
      SMS_HAND_OVER_WAIT_MS: env.int(500, 0),
      SURVEY_GRPC_ADDR: env.string(localAddr('SURVEY_GRPC_PORT')),
      SHORTENER_GRPC_ADDR: env.string(localAddr('SHORTENER_GRPC_PORT')),
      /** The file service, for CSV workflows (BindDirectory, file.uploaded). */
      FILE_GRPC_ADDR: env.string(localAddr('FILE_GRPC_PORT')),
      FILE_UPLOADED_TOPIC: env.string('file.uploaded'),
      FILE_UPLOADED_GROUP: env.string('messaging-csv'),
      /** The campaign report's clicked and answered facts (README "Clicks and answers in the campaign report"): read in messaging's own groups. */
      CLICKS_TOPIC: env.string('link.clicked'),
      CLICK_FACTS_GROUP: env.string('messaging-click-facts'),
      SURVEY_ANSWERED_TOPIC: env.string('survey.answered'),
      ANSWER_FACTS_GROUP: env.string('messaging-answer-facts'),
      /** The flow service: which question of an answered flow is its NPS one. */
      FLOW_GRPC_ADDR: env.string(localAddr('FLOW_GRPC_PORT')),
      /** Erasure of one person's data (data_erasure.proto): requests consumed in messaging's own group, reports published. */
      DATA_ERASURE_REQUESTED_TOPIC: env.string('data.erasure.requested'),
      DATA_ERASURE_PROGRESS_TOPIC: env.string('data.erasure.progress'),
      DATA_ERASURE_GROUP: env.string('messaging-data-erasure'),
      /** Deadline of every call to the survey and shortener services (one name for it in every app). */
      GRPC_DEADLINE_MS: env.int(5_000, 100),
      /** Region for phones written without a country code (ISO 3166 alpha-2). */
      DEFAULT_PHONE_REGION: env.string('TR').refine(isPhoneRegion, 'must be a supported ISO 3166 region code, e.g. TR'),
      /** Hard cap on phones per sharing request (5,000 recommended); the gateway reads the same variable. */
      SMS_MAX_PHONES_PER_SHARING: env.int(10_000, 1),
      /**
       * The send window of campaigns without their own, as JSON
       * (`{"start":"09:00","end":"21:00","time_zone":"Europe/Istanbul","days":["mon",...]}`); unset: any time.
       */
      SMS_DEFAULT_SEND_WINDOW: z
        .string()
        .optional()
        .transform((v, ctx) => {
          if (!v) return null;
          try {
            return parseSendWindow(JSON.parse(v));
          } catch (err) {
            ctx.addIssue({ code: 'custom', message: `must be a send window as JSON: ${describe(err)}` });
            return z.NEVER;
          }
        }),
      /** Scheduled SMS (send_at, a window's opening, reminders) are released at most this many per second. */
      SMS_RELEASE_PER_SECOND: env.int(100, 1),
      /** How often this process looks for due scheduled SMS. */
      SMS_SCHEDULER_INTERVAL_MS: env.int(1_000, 100),
      /** How often the scheduler's leader looks for sharings whose first messages are all settled (sharing.completed). */
      SHARING_COMPLETION_SWEEP_MS: env.int(5_000, 100),
      /** How often the campaign report's relay (one replica at a time) moves owed facts into the counters (README "Campaign report counters"). */
      REPORT_TALLY_INTERVAL_MS: env.int(1_000, 50),
      /** Days SMS message records and sharings (with their recipients) are kept, for accounts without their own; 0: for ever (docs/api.md "Retention"). */
      MESSAGES_RETENTION_DAYS: env.int(365, 0),
      ...retentionSweepEnv,
      ACCOUNT_RETENTION_GROUP: env.string('messaging-retention'),
      /**
       * `outbox`: the recording provider (providers/adapters/mongo/recording.provider.ts), which sends nothing.
       * The value keeps its old name: infra/apps.sh, the Helm chart, docker-compose and deployments set it.
       */
      SMS_PROVIDER: z.enum(['outbox', 'http']).default('outbox'),
      /** JSON, see providers/adapters/http/http-provider.config.ts; required when SMS_PROVIDER=http. */
      SMS_HTTP_PROVIDER: z.string().optional(),
      /**
       * The deployment's provider sends the Turkish single shift table (3GPP TS 23.038), so Turkish
       * letters cost gsm7-tr segments instead of ucs2 (README "Cost of a message").
       */
      SMS_TURKISH_SHIFT_TABLE: env.bool(false),
      /** The shortener's own short domain and code length: previews stand a link of that length in for the real one. */
      PUBLIC_SHORTENER_URL: env.url(`http://${localAddr('LINK_PORT')}`).transform((u) => u.replace(/\/+$/, '')),
      SHORT_CODE_LENGTH: env.int(7, 6).refine((n) => n <= 32, 'must be at most 32'),
      /** The delivery-report listener (internal; the SMS gateway calls it). */
      DLR_HOST: env.string('0.0.0.0'),
      DLR_PORT: env.port(LOCAL_PORTS.MESSAGING_DLR_PORT),
      /** How the SMS gateway reaches that listener. */
      DLR_PUBLIC_URL: env.url(`http://${localAddr('MESSAGING_DLR_PORT')}`),
      /**
       * Inbound SMS whose first word is one of these (any case; İ, I, ı and i alike) put the sender
       * on the suppression list of every account that texted it (README "SMS opt-out").
       */
      SMS_OPT_OUT_KEYWORDS: env.list('STOP,IPTAL,RET,DUR'),
      /** The confirmation texted back through the deployment's provider after an opt-out keyword; empty: none. */
      SMS_OPT_OUT_REPLY: z.string().default(''),
      /** Signs callback URLs; at least 32 characters. */
      DLR_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
      /**
       * Seals accounts' own SMS providers at rest (AES-256-GCM): 32 random bytes, base64 or base64url
       * (`openssl rand -base64 32`). Unset: accounts cannot have their own provider (PUT answers 503).
       */
      SMS_PROVIDER_SECRETS_KEY: env.optionalKey32(),
      /** Keys that sealed providers before the current one (comma-separated): they still open them (README "Account providers"). */
      SMS_PROVIDER_SECRETS_PREVIOUS_KEYS: env.key32List(),
      /**
       * Custom attributes never stored in clear (comma-separated, compared without case; `tckn`
       * always is): a deferred sharing keeps them sealed until released, others not at all.
       */
      SENSITIVE_CUSTOMER_ATTRIBUTES: env.sensitiveAttributes(),
      ...env.personalDataKeys(),
      /** How long an account's provider (or its having none) is remembered; other replicas see a change within it. */
      ACCOUNT_SMS_PROVIDER_CACHE_MS: env.int(30_000, 0),
      LOG_LEVEL: env.logLevel(),
    },
    vars,
  );

/** The variables, with the store and broker connections checked together and their files (CAs, passwords) read once. */
export const loadEnv = (vars: Record<string, string | undefined> = process.env) => {
  const config = readVars(vars);
  return { ...config, mongo: mongoConnection(config), kafka: kafkaConnection(config) };
};

export type MessagingEnv = ReturnType<typeof loadEnv>;

/** What a bad value is: the fields an invalid error names, or the JSON error. */
function describe(err: unknown): string {
  const fields = err instanceof AppError ? Object.entries(err.fields) : [];
  return fields.length > 0 ? fields.map(([k, v]) => `${k} ${v}`).join('; ') : (err as Error).message;
}
