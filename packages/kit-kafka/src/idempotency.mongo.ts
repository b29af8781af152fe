import { MongoServerError, type Db } from 'mongodb';
import type { IdempotencyStore } from './idempotency.js';

interface ProcessedEvent {
  _id: string;
  group: string;
  event_id: string;
  processed_at: Date;
}

const DUPLICATE_KEY = 11000;

/**
 * One document per (group, event) with `_id` `${group}:${eventId}`: the primary key is the
 * uniqueness rule, so no extra index is needed and two replicas racing on the same event
 * cannot both insert. Old entries are not expired by a TTL index (FerretDB has none):
 * a service that needs pruning deletes by `processed_at` from its own job.
 */
export function mongoIdempotencyStore(db: Db, collection = 'processed_events'): IdempotencyStore {
  const events = db.collection<ProcessedEvent>(collection);
  return {
    async seen(group, eventId) {
      const hit = await events.findOne({ _id: `${group}:${eventId}` }, { projection: { _id: 1 } });
      return hit !== null;
    },
    async record(group, eventId) {
      try {
        await events.insertOne({ _id: `${group}:${eventId}`, group, event_id: eventId, processed_at: new Date() });
      } catch (err) {
        // Already recorded (a redelivery racing another replica): the goal is reached.
        if (err instanceof MongoServerError && err.code === DUPLICATE_KEY) return;
        throw err;
      }
    },
  };
}
