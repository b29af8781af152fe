import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { currentContext } from './request-context.js';

/** Paths that must never reach a log line. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'token',
  '*.token',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'secret_key',
  '*.secret_key',
  // An account's SMS provider settings (messaging PutSmsProvider): credentials inside.
  'configJson',
  '*.configJson',
  'config_json',
  '*.config_json',
  // Personal data by the names our requests and domain give it: a line that names a field so
  // (a gRPC request, a recipient) writes [redacted] instead (docs/decisions.md "Request logging").
  'phone',
  '*.phone',
  'phones',
  'email',
  '*.email',
  'tckn',
  'TCKN',
  '*.TCKN',
];

/**
 * LOG_REQUESTS: which HTTP requests get an access-log line (docs/decisions.md "Request logging"):
 * all (one line per request, at completion), errors (5xx and failed ones), off.
 */
export const REQUEST_LOGGING = ['all', 'errors', 'off'] as const;
export type RequestLogging = (typeof REQUEST_LOGGING)[number];

/**
 * One pino logger per process. Every line carries the current request id (from the
 * async context) and secrets are redacted.
 */
export function createLogger(service: string, level = 'info', options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const opts: LoggerOptions = {
    name: service,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin(_obj, _level, logger) {
      const ctx = currentContext();
      // Child loggers that already bind request_id (fastify's per-request logger) keep theirs.
      if (!ctx || (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym]?.includes('"request_id"')) return {};
      return { request_id: ctx.requestId };
    },
    ...options,
  };
  return pino(opts, destination ?? stdoutDestination());
}

/** How long a logged line may wait in memory before it is written (`stdoutDestination`). */
export const LOG_FLUSH_INTERVAL_MS = 250;

/**
 * Asynchronous, buffered stdout (sonic-boom): a line is queued without blocking the request
 * that logged it, and written once 8 KiB have gathered or within LOG_FLUSH_INTERVAL_MS. One
 * write per line (sync: false alone) cost the gateway ~0.007 ms per request, an eighth of a
 * cached flow-details answer (docs/performance.md). pino flushes what is queued when the process
 * exits, and onShutdown flushes after the closers; a process killed with SIGKILL loses at most
 * the last quarter second of lines.
 */
export function stdoutDestination() {
  return pino.destination({ dest: 1, sync: false, minLength: 8 * 1024, periodicFlush: LOG_FLUSH_INTERVAL_MS });
}
