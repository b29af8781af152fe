import { insertOnce } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { IdempotencyClaim, IdempotencyKeys, StoredAnswer } from '../../domain/ports.js';

interface KeyDoc {
  _id: string;
  request_hash: string;
  state: 'in_flight' | 'done';
  /** A claim whose gateway died is taken over after this. */
  locked_until: Date;
  expires_at: Date;
  created_at: Date;
  status?: number;
  body?: string;
  content_type?: string;
  completed_at?: Date;
}

interface IdempotencyOptions {
  /** How long a key is kept (24 h). */
  ttlMs: number;
  /** How long an unfinished claim holds (longer than any request may run). */
  leaseMs: number;
}

/**
 * On MongoDB: the `_id` is the uniqueness rule, so one request wins a key (kit-stores insertOnce).
 * Expired records go by the TTL index of gatewayIndexes.
 */
export class MongoIdempotencyKeys implements IdempotencyKeys {
  private readonly keys: Collection<KeyDoc>;

  constructor(
    db: Db,
    private readonly opts: IdempotencyOptions,
  ) {
    this.keys = db.collection<KeyDoc>('idempotency_keys');
  }

  async claim(id: string, requestHash: string, now: Date): Promise<IdempotencyClaim> {
    const lockedUntil = new Date(now.getTime() + this.opts.leaseMs);
    // A few rounds: the key may expire or be released between our insert and our read.
    for (let round = 0; round < 3; round++) {
      const doc: KeyDoc = {
        _id: id,
        request_hash: requestHash,
        state: 'in_flight',
        locked_until: lockedUntil,
        expires_at: new Date(now.getTime() + this.opts.ttlMs),
        created_at: now,
      };
      if (await insertOnce(this.keys, doc)) return { outcome: 'claimed' };
      const existing = await this.keys.findOne({ _id: id });
      if (!existing) continue;
      if (existing.expires_at <= now) {
        await this.keys.deleteOne({ _id: id, expires_at: existing.expires_at });
        continue;
      }
      if (existing.request_hash !== requestHash) return { outcome: 'mismatch' };
      if (existing.state === 'done') {
        return {
          outcome: 'replay',
          answer: {
            status: existing.status!,
            body: existing.body ?? '',
            contentType: existing.content_type ?? 'application/json; charset=utf-8',
          },
        };
      }
      if (existing.locked_until > now) return { outcome: 'in_flight' };
      // The gateway that claimed it is gone: take the claim over, one winner.
      const taken = await this.keys.updateOne(
        { _id: id, state: 'in_flight', locked_until: existing.locked_until },
        { $set: { locked_until: lockedUntil } },
      );
      if (taken.modifiedCount === 1) return { outcome: 'claimed' };
    }
    return { outcome: 'in_flight' };
  }

  async complete(id: string, answer: StoredAnswer, now: Date): Promise<void> {
    await this.keys.updateOne(
      { _id: id, state: 'in_flight' },
      { $set: { state: 'done', status: answer.status, body: answer.body, content_type: answer.contentType, completed_at: now } },
    );
  }

  async release(id: string): Promise<void> {
    await this.keys.deleteOne({ _id: id, state: 'in_flight' });
  }
}
