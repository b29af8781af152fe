import { AppError } from '@feedback/kit-core';

/** One item's answer in a batch: its value, or the AppError it alone failed with. */
export type Settled<T> = T | AppError;

/**
 * Runs one item's work; its AppError becomes its answer. Anything else (the database gone)
 * is not the item's fault and fails the whole batch, as it would fail a single call.
 */
export async function settle<T>(work: () => Promise<T>): Promise<Settled<T>> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

/** settle for synchronous work (an item's own checks). */
export function settleNow<T>(work: () => T): Settled<T> {
  try {
    return work();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}
