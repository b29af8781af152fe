/**
 * Which events a consumer group has already handled, so a redelivered event (Kafka is
 * at-least-once: a rebalance or a crash before the offset commit replays messages) or a
 * republished duplicate is skipped.
 *
 * This narrows duplicates; it does not make a handler exactly-once. The event is recorded
 * after the handler returns, so a crash between the handler's side effect and `record`
 * replays the handler. Handlers whose effects must happen once still make their own writes
 * idempotent (upserts keyed by a natural id, unique indexes, a claim with findOneAndUpdate).
 */
export interface IdempotencyStore {
  seen(group: string, eventId: string): Promise<boolean>;
  record(group: string, eventId: string): Promise<void>;
}

/** For unit tests and single-process tools; forgets everything on restart. */
export function memoryIdempotencyStore(): IdempotencyStore {
  const done = new Set<string>();
  return {
    seen: async (group, eventId) => done.has(`${group}:${eventId}`),
    record: async (group, eventId) => {
      done.add(`${group}:${eventId}`);
    },
  };
}
