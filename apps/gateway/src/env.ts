import { configChecks, env, loadConfig, LOCAL_PORTS, localAddr, REQUEST_LOGGING } from '@feedback/kit-core/runtime';
import { metricsEnv } from '@feedback/kit-metrics';
import { kafkaConnection, kafkaSecurityEnv } from '@feedback/kit-kafka';
import { mongoConnection, mongoSecurityEnv, redisConnection, redisSecurityEnv } from '@feedback/kit-stores';
import { z } from 'zod';
import { peerAddressVars } from './grpc-peers.js';
import { isTimeZone } from './api/surveys/display-date.js';
import { PEERS } from './peers.js';

const readVars = (vars: Record<string, string | undefined>) =>
  loadConfig(
    {
      HOST: env.string('0.0.0.0'),
      API_PORT: env.port(LOCAL_PORTS.API_PORT),
      LINK_PORT: env.port(LOCAL_PORTS.LINK_PORT),
      /** Prometheus (GET /metrics, both listeners' requests); never the public API port. */
      ...metricsEnv(LOCAL_PORTS.GATEWAY_METRICS_PORT),
      PUBLIC_BASE_URL: env.url(`http://${localAddr('API_PORT')}`),
      PUBLIC_SHORTENER_URL: env.url(`http://${localAddr('LINK_PORT')}`),
      ADMIN_TOKEN: z.string().min(24, 'must be at least 24 characters'),
      MONGO_URL: env.string(`mongodb://${localAddr('MONGO_PORT')}`),
      ...mongoSecurityEnv,
      MONGO_DB: env.string('gateway'),
      ...peerAddressVars(PEERS),
      /** Largest file an upload may carry (413 / 13004 above). */
      MAX_UPLOAD_BYTES: env.int(1024 * 1024 * 1024, 1),
      /** Deadline of an upload or download stream through the file service. */
      FILE_STREAM_DEADLINE_MS: env.int(60 * 60_000, 1000),
      GRPC_DEADLINE_MS: env.int(5000, 1),
      BODY_LIMIT_BYTES: env.int(1024 * 1024, 1024),
      TOKEN_CACHE_TTL_MS: env.int(30_000),
      /** Memory for flow details kept in the gateway (flows never change; docs/decisions.md "Flow details cache"). */
      FLOW_CACHE_MAX_BYTES: env.int(32 * 1024 * 1024, 1024),
      // Link listener ({shortener_url}); docs/decisions.md "Short links".
      REDIS_URL: env.string(`redis://${localAddr('REDIS_PORT')}`),
      ...redisSecurityEnv,
      KAFKA_BROKERS: env.list(localAddr('KAFKA_PORT')),
      ...kafkaSecurityEnv,
      CLICKS_TOPIC: env.string('link.clicked'),
      REDIRECT_STATUS: z
        .enum(['301', '302', '303', '307', '308'])
        .default('302')
        .transform((s) => Number(s) as 301 | 302 | 303 | 307 | 308),
      LINK_CACHE_TTL_MS: env.int(10 * 60_000, 1000),
      /** A header a trusted edge sets to the client's country (e.g. CF-IPCountry); unset: none trusted (docs/decisions.md "Link analytics"). */
      LINK_COUNTRY_HEADER: env.string(''),
      /** A GeoLite2/GeoIP2 Country or City database (.mmdb) giving a click's country by address; unset: none. */
      LINK_GEOIP_DATABASE: z.string().optional(),
      /** Longest URL POST /shorten takes; keep it equal to the shortener's MAX_URL_LENGTH. */
      MAX_URL_LENGTH: env.int(2048, 32),
      SHORTEN_RATE_LIMIT_POINTS: env.int(300, 1),
      SHORTEN_RATE_LIMIT_WINDOW_SEC: env.int(60, 1),
      /** Client IPs never limited on POST /shorten (an operator's own systems). */
      SHORTEN_RATE_LIMIT_EXEMPT: env.list(''),
      /** Whose X-Forwarded-For the link listener believes for the client IP: false (default), true, a hop count, or IPs/CIDRs. */
      TRUST_PROXY: env.string('false'),
      // SMS sharing; docs/decisions.md "SMS sharing".
      /** The tier file (JSON or YAML, reloaded when it changes); unset → the default four tiers (docs/api.md "Limits"). */
      SMS_LIMITS_FILE: z.string().optional(),
      /** Hard cap on phone_numbers per sharing (400 above); messaging reads the same variable. */
      SMS_MAX_PHONES_PER_SHARING: env.int(10_000, 1),
      /** Body limit of POST .../sms_sharings (10,000 phones with attributes exceed BODY_LIMIT_BYTES). */
      SMS_SHARING_BODY_LIMIT_BYTES: env.int(3 * 1024 * 1024, 1024),
      /**
       * Deadline of the create-sharing call. Storing 10,000 recipients while the database also
       * dispatches earlier sharings can outlast 5 s (then 503; a retry with the Idempotency-Key is
       * the same sharing). A longer one also makes clients wait that long while Kafka is down,
       * which the fault tests count as a hang past 30 s: raise it with care.
       */
      SMS_SHARING_DEADLINE_MS: env.int(5_000, 1000),
      /**
       * Deadline of cancelling a sharing, which writes a "cancelled" record and a status event per
       * recipient not yet sent: 10,000 of them took past 5 s on the local database. A repeat
       * answers the same counts, so a 503 past it is safe to retry.
       */
      SMS_CANCEL_DEADLINE_MS: env.int(20_000, 1000),
      /** Accounts whose SMS sharing the operator has stopped (403 / 13013), comma-separated ids. */
      SMS_DISABLED_ACCOUNTS: env.list(''),
      /** How long an Idempotency-Key is remembered. */
      IDEMPOTENCY_KEY_TTL_HOURS: env.int(24, 1),
      // Retention (docs/api.md "Retention"): the deployment defaults GET .../retention shows; keep
      // each equal to the same variable of the service that applies it (messaging, survey, webhooks).
      MESSAGES_RETENTION_DAYS: env.int(365, 0),
      RESPONSES_RETENTION_DAYS: env.int(730, 0),
      WEBHOOK_DELIVERIES_RETENTION_DAYS: env.int(30, 0),
      /** Where an account's retention goes to the services (compacted). */
      ACCOUNT_RETENTION_TOPIC: env.string('account.retention'),
      // The console's people (docs/decisions.md "People and sessions").
      /** A console session ends after this long unused... */
      SESSION_IDLE_HOURS: env.int(12, 1),
      /** ...and this long after sign-in however busy. */
      SESSION_MAX_DAYS: env.int(7, 1),
      /** Failed sign-ins per e-mail, and per client IP, in 15 minutes; past them 429 with the wait. */
      SIGN_IN_FAILURES_PER_EMAIL: env.int(10, 1),
      SIGN_IN_FAILURES_PER_IP: env.int(50, 1),
      /** The first operator, created at start while there is none (both or neither; the file holds the password). */
      BOOTSTRAP_OPERATOR_EMAIL: env.optional(),
      BOOTSTRAP_OPERATOR_PASSWORD_FILE: env.optional(),
      // Single sign-on for the console (docs/decisions.md "Single sign-on"); all unset: passwords only.
      /** The OpenID Connect provider's issuer (https; plain http only on this machine), with OIDC_CLIENT_ID. */
      OIDC_ISSUER_URL: env.optional(),
      OIDC_CLIENT_ID: env.optional(),
      /** The client's secret, as a file (a mounted Secret); unset: a public client (PKCE alone). */
      OIDC_CLIENT_SECRET_FILE: env.optional(),
      /** The provider's name on the sign-in page ("Sign in with ..."). */
      OIDC_DISPLAY_NAME: env.optional(),
      /** The callback as registered at the provider; unset: PUBLIC_BASE_URL + /console/sso/callback. */
      OIDC_REDIRECT_URL: env.optional(),
      /** IANA time zone of the active survey list's LastActivationDate. */
      DISPLAY_TIME_ZONE: z.string().default('UTC').refine(isTimeZone, 'must be an IANA time zone name, e.g. Europe/Istanbul'),
      LOG_LEVEL: env.logLevel(),
      /** Access lines: all (one per request, at completion), errors (5xx and failed), off (docs/decisions.md "Request logging"). */
      LOG_REQUESTS: z.enum(REQUEST_LOGGING).default('all'),
    },
    vars,
  );

/** The variables, with the store and broker connections checked together and their files (CAs, passwords) read once. */
export const loadEnv = (vars: Record<string, string | undefined> = process.env) => {
  const config = readVars(vars);
  return {
    ...config,
    mongo: mongoConnection(config),
    kafka: kafkaConnection(config),
    redis: redisConnection(config),
    bootstrapOperator: bootstrapOperatorOf(config),
    oidc: oidcOf(config),
  };
};

type OidcVars = {
  PUBLIC_BASE_URL: string;
  OIDC_ISSUER_URL?: string | undefined;
  OIDC_CLIENT_ID?: string | undefined;
  OIDC_CLIENT_SECRET_FILE?: string | undefined;
  OIDC_DISPLAY_NAME?: string | undefined;
  OIDC_REDIRECT_URL?: string | undefined;
};
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const urlOf = (text: string) => {
  try {
    return new URL(text);
  } catch {
    return null;
  }
};

/** The console's single sign-on settings (the secret file read once), or null when OIDC_ISSUER_URL is unset. */
export function oidcOf(
  config: OidcVars,
  readFile?: (path: string) => string,
): { issuerUrl: string; clientId: string; clientSecret?: string; redirectUrl: string; displayName: string } | null {
  const checks = configChecks(readFile);
  const { OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET_FILE: secretFile } = config;
  if ((issuer === undefined) !== (clientId === undefined))
    checks.problem(issuer === undefined ? 'OIDC_ISSUER_URL' : 'OIDC_CLIENT_ID', 'is needed with the other OIDC_ setting');
  for (const key of ['OIDC_CLIENT_SECRET_FILE', 'OIDC_DISPLAY_NAME', 'OIDC_REDIRECT_URL'] as const)
    if (issuer === undefined && config[key] !== undefined) checks.problem(key, 'is set but OIDC_ISSUER_URL is not');
  const issuerUrl = issuer === undefined ? null : urlOf(issuer);
  // Tokens and the client's secret must not travel in the clear, except to a provider on this machine.
  if (issuer !== undefined && !(issuerUrl?.protocol === 'https:' || (issuerUrl?.protocol === 'http:' && LOOPBACK.has(issuerUrl.hostname))))
    checks.problem('OIDC_ISSUER_URL', 'must be an https URL (http only for localhost)');
  const redirectUrl = config.OIDC_REDIRECT_URL ?? `${config.PUBLIC_BASE_URL.replace(/\/+$/, '')}/console/sso/callback`;
  if (!/^https?:$/.test(urlOf(redirectUrl)?.protocol ?? '')) checks.problem('OIDC_REDIRECT_URL', 'must be an http(s) URL');
  const secret = secretFile === undefined ? undefined : checks.file('OIDC_CLIENT_SECRET_FILE', secretFile)?.replace(/\r?\n$/, '');
  if (secret === '') checks.problem('OIDC_CLIENT_SECRET_FILE', `${secretFile} is empty`);
  checks.throwIfAny();
  if (issuer === undefined || clientId === undefined) return null;
  return {
    issuerUrl: issuer,
    clientId,
    ...(secret !== undefined && { clientSecret: secret }),
    redirectUrl,
    displayName: config.OIDC_DISPLAY_NAME ?? 'single sign-on',
  };
}

/** The bootstrap operator's e-mail and password (the file's text, a final newline dropped), or null when unset. */
function bootstrapOperatorOf(
  config: { BOOTSTRAP_OPERATOR_EMAIL?: string | undefined; BOOTSTRAP_OPERATOR_PASSWORD_FILE?: string | undefined },
  readFile?: (path: string) => string,
): { email: string; password: string } | null {
  const { BOOTSTRAP_OPERATOR_EMAIL: email, BOOTSTRAP_OPERATOR_PASSWORD_FILE: path } = config;
  const checks = configChecks(readFile);
  if ((email === undefined) !== (path === undefined)) {
    checks.problem(
      email === undefined ? 'BOOTSTRAP_OPERATOR_EMAIL' : 'BOOTSTRAP_OPERATOR_PASSWORD_FILE',
      'is needed with the other BOOTSTRAP_OPERATOR_ setting',
    );
  }
  const password =
    email !== undefined && path !== undefined ? checks.file('BOOTSTRAP_OPERATOR_PASSWORD_FILE', path)?.replace(/\r?\n$/, '') : undefined;
  checks.throwIfAny();
  return email !== undefined && password !== undefined ? { email, password } : null;
}
