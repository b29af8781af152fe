import { MongoBulkWriteError } from 'mongodb';

const DUPLICATE_KEY = 11000;

/**
 * The operations an unordered bulk write refused for a unique key (their indexes in the
 * batch); the others were applied. Any other failure (another write error, a write concern
 * error, the connection) is rethrown: it is not one item's answer.
 */
export function duplicateKeyIndexes(err: unknown): Set<number> {
  if (!(err instanceof MongoBulkWriteError)) throw err;
  const writeErrors = [err.writeErrors].flat();
  if (writeErrors.length === 0 || writeErrors.some((w) => w.code !== DUPLICATE_KEY) || err.result?.getWriteConcernError()) throw err;
  return new Set(writeErrors.map((w) => w.index));
}
