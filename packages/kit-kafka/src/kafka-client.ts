import type { ConnectionOptions } from 'node:tls';
import { Kafka, logLevel, type logCreator, type RetryOptions, type SASLOptions } from 'kafkajs';
import type { Logger } from '@feedback/kit-core';

export interface CreateKafkaOptions {
  brokers: string[];
  clientId: string;
  /** TLS to the brokers: true for the system's CAs, or Node TLS options (ca, cert, key ...). From `kafkaConnection`. */
  ssl?: ConnectionOptions | true;
  /** SASL credentials (plain, scram-sha-256, scram-sha-512). From `kafkaConnection`. */
  sasl?: SASLOptions;
  logger: Logger;
  /** Overrides the client-wide retry policy (connects, metadata, produce and admin requests). */
  retry?: RetryOptions;
  connectionTimeout?: number;
  requestTimeout?: number;
}

/**
 * Client-wide retries: exponential from 300 ms, capped at 30 s per wait, 10 retries (about two
 * minutes in all), so a service started just before its broker, or riding out a broker
 * restart, waits instead of crashing; a broker that stays away still surfaces as an error.
 */
const DEFAULT_RETRY: RetryOptions = { initialRetryTime: 300, maxRetryTime: 30_000, retries: 10 };

export function createKafka(opts: CreateKafkaOptions): Kafka {
  return new Kafka({
    brokers: opts.brokers,
    clientId: opts.clientId,
    ...(opts.ssl !== undefined && { ssl: opts.ssl }),
    ...(opts.sasl !== undefined && { sasl: opts.sasl }),
    connectionTimeout: opts.connectionTimeout ?? 3_000,
    requestTimeout: opts.requestTimeout ?? 30_000,
    retry: { ...DEFAULT_RETRY, ...opts.retry },
    // kafkajs filters below this level before calling the log creator: follow pino's level so
    // debug entries are not even built when pino would drop them.
    logLevel: kafkaLevelFor(opts.logger.level),
    logCreator: pinoLogCreator(opts.logger),
  });
}

function kafkaLevelFor(pinoLevel: string): logLevel {
  switch (pinoLevel) {
    case 'trace':
    case 'debug':
      return logLevel.DEBUG;
    case 'info':
      return logLevel.INFO;
    case 'warn':
      return logLevel.WARN;
    case 'silent':
      return logLevel.NOTHING;
    default:
      return logLevel.ERROR;
  }
}

/**
 * Error answers that kafkajs's connection logs at error level although they are part of normal
 * operation and handled where they occur; logged at info instead, so that an error line means
 * something went wrong. Matched on kafkajs's request name and message (kafkajs is pinned).
 */
const EXPECTED_ERROR_ANSWERS: { request: RegExp; error: string }[] = [
  // Another process created the same topic a moment earlier (TOPIC_ALREADY_EXISTS): every replica
  // runs ensureTopics at start-up. Any other creation failure ensureTopics throws to its caller.
  { request: /^Response CreateTopics\(/, error: 'Topic creation errors' },
  // A member joined or left the group: the others' heartbeats and commits are answered this
  // (REBALANCE_IN_PROGRESS) and kafkajs rejoins; several replicas starting at once meet it.
  { request: /^Response (Heartbeat|OffsetCommit|SyncGroup|JoinGroup)\(/, error: 'The group is rebalancing, so a rejoin is needed' },
];

function isExpectedErrorAnswer(namespace: string, message: unknown, error: unknown): boolean {
  if (namespace !== 'Connection' || typeof message !== 'string') return false;
  return EXPECTED_ERROR_ANSWERS.some((e) => e.error === error && e.request.test(message));
}

/** Routes kafkajs log entries to pino at the matching level, tagged with the kafkajs namespace. */
export function pinoLogCreator(logger: Logger): logCreator {
  const log = logger.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log: entry }) => {
      // kafkajs's own timestamp and logger name would duplicate pino's fields.
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = entry;
      const fields = { namespace, ...extra };
      if (level === logLevel.ERROR && isExpectedErrorAnswer(namespace, message, extra.error)) return log.info(fields, message);
      switch (level) {
        case logLevel.ERROR:
          return log.error(fields, message);
        case logLevel.WARN:
          return log.warn(fields, message);
        case logLevel.INFO:
          return log.info(fields, message);
        case logLevel.DEBUG:
          return log.debug(fields, message);
        default:
          return undefined;
      }
    };
}
