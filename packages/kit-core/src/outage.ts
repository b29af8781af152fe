import { AppError, errors } from './errors.js';

/** Socket errors of a dependency that is down or unreachable (not of a bad request). */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** Driver errors that mean "no server to talk to" (MongoDB's server selection, a closed pool, Kafka's connection). */
const OUTAGE_NAMES = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
]);

/**
 * Whether an error says an infrastructure dependency (database, object store, broker) is
 * unreachable rather than that the code is wrong: its own code or name, its `cause`, the
 * errors of an AggregateError (Node's connection attempts to several addresses) or a bulk write's
 * `errorResponse`.
 */
export function isOutage(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown; errorResponse?: unknown };
  if (typeof e.code === 'string' && OUTAGE_CODES.has(e.code)) return true;
  if (typeof e.name === 'string' && OUTAGE_NAMES.has(e.name)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isOutage(inner, depth + 1))) return true;
  // The MongoDB driver's MongoBulkWriteError (insertMany) carries the network error that cut the
  // batch short in errorResponse, not in cause.
  if (isOutage(e.errorResponse, depth + 1)) return true;
  return isOutage(e.cause, depth + 1);
}

/**
 * Anything thrown, as the AppError a caller may see: an AppError as it is, an outage as
 * 'unavailable' (503 / 13009, retry later), anything else as 'internal' (a bug; log the original).
 */
export function toPublicError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return isOutage(err) ? errors.unavailable() : errors.internal();
}
