import type { ConnectionOptions } from 'node:tls';
import { configChecks, env } from '@feedback/kit-core/runtime';
import type { SASLOptions } from 'kafkajs';
import { z } from 'zod';

const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/**
 * The Kafka connection variables every app that talks to Kafka spreads into its env.ts, next
 * to KAFKA_BROKERS. Everything off by default: a plaintext listener, as the local stack and
 * docker-compose run. Pass the parsed config to `kafkaConnection` for createKafka.
 */
export const kafkaSecurityEnv = {
  /** TLS to the brokers (SSL or SASL_SSL listeners). */
  KAFKA_TLS: env.bool(false),
  /** PEM file of the CA(s) the brokers' certificates chain to; unset → the system's trusted CAs (MSK, Confluent Cloud). */
  KAFKA_TLS_CA_FILE: env.optional(),
  /** Client certificate and key (PEM) for mutual TLS; both or neither. */
  KAFKA_TLS_CERT_FILE: env.optional(),
  KAFKA_TLS_KEY_FILE: env.optional(),
  /**
   * Whether the broker's certificate must name the host this client dialled. Turning it off
   * still checks the chain against the CA; only for brokers whose certificates name no
   * reachable host.
   */
  KAFKA_TLS_CHECK_SERVER_NAME: env.bool(true),
  /** plain | scram-sha-256 | scram-sha-512 (any case); unset → no SASL. */
  KAFKA_SASL_MECHANISM: z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' ? v.toLowerCase() : v),
    z.enum(KAFKA_SASL_MECHANISMS, { message: `must be one of ${KAFKA_SASL_MECHANISMS.join(', ')}` }).optional(),
  ),
  KAFKA_SASL_USERNAME: env.optional(),
  /** The password itself, or (one of the two) a file holding it, as a mounted Secret is. */
  KAFKA_SASL_PASSWORD: env.optional(),
  KAFKA_SASL_PASSWORD_FILE: env.optional(),
};

type KafkaSecurityConfig = z.infer<z.ZodObject<typeof kafkaSecurityEnv>>;

/** What createKafka needs to reach the brokers; spread it into CreateKafkaOptions. */
export interface KafkaConnection {
  brokers: string[];
  ssl?: ConnectionOptions | true;
  sasl?: SASLOptions;
}

/**
 * Checks the Kafka variables together and reads the files they name, at start-up: a mechanism
 * without a username, a CA file while TLS is off, an unreadable file, each fails with a
 * ConfigError naming the variable instead of a connection that later fails in some other way.
 * The password is never part of a message.
 */
export function kafkaConnection(
  config: KafkaSecurityConfig & { KAFKA_BROKERS: string[] },
  readFile?: (path: string) => string,
): KafkaConnection {
  const checks = configChecks(readFile);
  const { problem } = checks;
  const read = (key: string, path: string | undefined) => (path === undefined ? undefined : checks.file(key, path));
  // Certificates and keys of any PEM kind ("RSA PRIVATE KEY", "TRUSTED CERTIFICATE"...).
  const pem = (key: string, path: string | undefined, kind: 'CERTIFICATE' | 'PRIVATE KEY') =>
    path === undefined ? undefined : checks.pem(key, path, kind, `[A-Z ]*${kind}`);

  let ssl: KafkaConnection['ssl'];
  const tlsFiles = (['KAFKA_TLS_CA_FILE', 'KAFKA_TLS_CERT_FILE', 'KAFKA_TLS_KEY_FILE'] as const).filter((k) => config[k] !== undefined);
  if (!config.KAFKA_TLS) {
    for (const key of tlsFiles) problem(key, 'is set but KAFKA_TLS is not true (set KAFKA_TLS=true to connect with TLS)');
    if (!config.KAFKA_TLS_CHECK_SERVER_NAME) problem('KAFKA_TLS_CHECK_SERVER_NAME', 'is false but KAFKA_TLS is not true');
  } else {
    if ((config.KAFKA_TLS_CERT_FILE === undefined) !== (config.KAFKA_TLS_KEY_FILE === undefined)) {
      const missing = config.KAFKA_TLS_CERT_FILE === undefined ? 'KAFKA_TLS_CERT_FILE' : 'KAFKA_TLS_KEY_FILE';
      problem(missing, 'is required with the other one: a client certificate and its key go together (mutual TLS)');
    }
    const ca = pem('KAFKA_TLS_CA_FILE', config.KAFKA_TLS_CA_FILE, 'CERTIFICATE');
    const cert = pem('KAFKA_TLS_CERT_FILE', config.KAFKA_TLS_CERT_FILE, 'CERTIFICATE');
    const key = pem('KAFKA_TLS_KEY_FILE', config.KAFKA_TLS_KEY_FILE, 'PRIVATE KEY');
    const options: ConnectionOptions = {
      ...(ca !== undefined && { ca: [ca] }),
      ...(cert !== undefined && key !== undefined && { cert, key }),
      // The chain is still verified (rejectUnauthorized stays on); only the name is not compared.
      ...(!config.KAFKA_TLS_CHECK_SERVER_NAME && { checkServerIdentity: () => undefined }),
    };
    ssl = Object.keys(options).length > 0 ? options : true;
  }

  let sasl: SASLOptions | undefined;
  const mechanism = config.KAFKA_SASL_MECHANISM;
  const credentialKeys = (['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_SASL_PASSWORD_FILE'] as const).filter(
    (k) => config[k] !== undefined,
  );
  if (mechanism === undefined) {
    for (const key of credentialKeys) problem(key, 'is set but KAFKA_SASL_MECHANISM is not (plain, scram-sha-256 or scram-sha-512)');
  } else {
    if (config.KAFKA_SASL_USERNAME === undefined) problem('KAFKA_SASL_USERNAME', `is required with KAFKA_SASL_MECHANISM=${mechanism}`);
    let password: string | undefined;
    if (config.KAFKA_SASL_PASSWORD !== undefined && config.KAFKA_SASL_PASSWORD_FILE !== undefined) {
      problem('KAFKA_SASL_PASSWORD_FILE', 'and KAFKA_SASL_PASSWORD are both set; set one');
    } else if (config.KAFKA_SASL_PASSWORD_FILE !== undefined) {
      // A Secret written with `echo` or a heredoc ends in a newline that is no part of the password.
      password = read('KAFKA_SASL_PASSWORD_FILE', config.KAFKA_SASL_PASSWORD_FILE)?.replace(/\r?\n$/, '');
      if (password === '') problem('KAFKA_SASL_PASSWORD_FILE', `${config.KAFKA_SASL_PASSWORD_FILE} is empty`);
    } else if (config.KAFKA_SASL_PASSWORD !== undefined) {
      password = config.KAFKA_SASL_PASSWORD;
    } else {
      problem('KAFKA_SASL_PASSWORD', `or KAFKA_SASL_PASSWORD_FILE is required with KAFKA_SASL_MECHANISM=${mechanism}`);
    }
    if (config.KAFKA_SASL_USERNAME !== undefined && password) {
      sasl = { mechanism, username: config.KAFKA_SASL_USERNAME, password } as SASLOptions;
    }
  }

  checks.throwIfAny();
  return { brokers: config.KAFKA_BROKERS, ...(ssl !== undefined && { ssl }), ...(sasl !== undefined && { sasl }) };
}
