import type { Db } from 'mongodb';
import { insertOnce, type IndexSpec } from './mongo.js';

interface ProcessedEvent {
  _id: string;
  group: string;
  event_id: string;
  processed_at: Date;
}

/**
 * kit-kafka's IdempotencyStore on MongoDB: one document per (group, event) with `_id`
 * `${group}:${eventId}`. The primary key is the uniqueness rule, so no extra index is needed
 * and two replicas racing on the same event cannot both insert; recording an event twice is
 * not an error. Old entries go with a TTL index (`processedEventIndexes`): an event older than
 * the topic's retention can no longer be redelivered, so remembering it longer serves nobody.
 */
export function mongoIdempotencyStore(db: Db, collection = 'processed_events') {
  const events = db.collection<ProcessedEvent>(collection);
  return {
    async seen(group: string, eventId: string): Promise<boolean> {
      return (await events.findOne({ _id: `${group}:${eventId}` }, { projection: { _id: 1 } })) !== null;
    },
    async record(group: string, eventId: string): Promise<void> {
      await insertOnce(events, { _id: `${group}:${eventId}`, group, event_id: eventId, processed_at: new Date() });
    },
  };
}

/** The TTL index that prunes the store; add it to the service's ensureIndexes spec. */
export function processedEventIndexes(collection = 'processed_events', keepSeconds = 7 * 24 * 3600): IndexSpec {
  return { [collection]: [{ key: { processed_at: 1 }, name: 'processed_at_ttl', expireAfterSeconds: keepSeconds }] };
}
