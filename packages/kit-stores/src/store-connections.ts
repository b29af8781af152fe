import { configChecks, env } from '@feedback/kit-core/runtime';

type ReadFile = (path: string) => string;

/**
 * MongoDB: credentials, TLS and the auth database go in MONGO_URL, as the driver reads them
 * (`mongodb://user:pass@host/?tls=true&authSource=admin`). MONGO_TLS_CA_FILE is for a URL that
 * comes whole from elsewhere (an operator's connection-string Secret) while the CA is mounted
 * as a file: it turns TLS on and trusts that CA.
 */
export const mongoSecurityEnv = {
  MONGO_TLS_CA_FILE: env.optional(),
};

export interface MongoConnection {
  url: string;
  tlsCAFile?: string;
}

export function mongoConnection(
  config: { MONGO_URL: string; MONGO_TLS_CA_FILE?: string | undefined },
  readFile?: ReadFile,
): MongoConnection {
  const checks = configChecks(readFile);
  const path = config.MONGO_TLS_CA_FILE;
  if (path !== undefined) {
    checks.pem('MONGO_TLS_CA_FILE', path, 'CERTIFICATE');
    if (/[?&](tls|ssl)=false(&|$)/i.test(config.MONGO_URL)) {
      checks.problem('MONGO_TLS_CA_FILE', 'is set but MONGO_URL turns TLS off (tls=false)');
    }
  }
  checks.throwIfAny();
  return { url: config.MONGO_URL, ...(path !== undefined && { tlsCAFile: path }) };
}

/**
 * Redis: `rediss://[user:password@]host:port` for TLS and a password (ACL user or
 * requirepass), and REDIS_TLS_CA_FILE when the server's certificate is from a private CA.
 */
export const redisSecurityEnv = {
  REDIS_TLS_CA_FILE: env.optional(),
};

export interface RedisConnection {
  url: string;
  /** TLS options beyond what the URL says (the CA). */
  tls?: { ca: string[] };
}

export function redisConnection(
  config: { REDIS_URL: string; REDIS_TLS_CA_FILE?: string | undefined },
  readFile?: ReadFile,
): RedisConnection {
  const checks = configChecks(readFile);
  let tls: RedisConnection['tls'];
  const path = config.REDIS_TLS_CA_FILE;
  if (path !== undefined) {
    if (!config.REDIS_URL.startsWith('rediss://')) {
      checks.problem('REDIS_TLS_CA_FILE', 'is set but REDIS_URL is not rediss:// (TLS is asked for by the URL)');
    }
    const ca = checks.pem('REDIS_TLS_CA_FILE', path, 'CERTIFICATE');
    if (ca !== undefined) tls = { ca: [ca] };
  }
  checks.throwIfAny();
  return { url: config.REDIS_URL, ...(tls !== undefined && { tls }) };
}

/** scheme://, user, password: up to the last `@`, so a password with an unescaped `@` counts whole. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^:@/]*):(.*)@(?=[^@]*$)/is;

/**
 * A connection URL fit for logs and error messages: the password (everything between the
 * user's `:` and the last `@`) replaced. A regex, because `new URL` rejects multi-host Mongo URLs.
 */
export function redactUrl(url: string): string {
  return url.replace(USERINFO, '$1$2:***@');
}

/** The password part of a connection URL as written (percent-encoded or not); undefined without one. */
export function urlPassword(url: string): string | undefined {
  return USERINFO.exec(url)?.[3] || undefined;
}
