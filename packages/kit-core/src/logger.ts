import { pino, type Logger, type LoggerOptions } from 'pino';
import { currentContext } from './request-context.js';

export type { Logger };

/** Paths that must never reach a log line. */
export const REDACT_PATHS = [
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
];

/**
 * One pino logger per process. Every line carries the current request id (from the
 * async context) and secrets are redacted.
 */
export function createLogger(service: string, level = 'info', options: LoggerOptions = {}): Logger {
  return pino({
    name: service,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const ctx = currentContext();
      return ctx ? { request_id: ctx.requestId } : {};
    },
    ...options,
  });
}
