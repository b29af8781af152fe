import type { Page, PageQuery } from '@feedback/kit-core';
import { keysetPage } from '@feedback/kit-stores';
import { MongoBulkWriteError, type Collection, type Db, type UpdateFilter } from 'mongodb';
import type { AttemptOutcome, DeliveryRepository } from '../../domain/ports.js';
import type { Attempt, Delivery, DeliveryStatus } from '../../domain/webhook.js';

interface AttemptDoc {
  at: Date;
  status_code: number;
  error: string;
  latency_ms: number;
  response_body: string;
}

interface DeliveryDoc {
  _id: string;
  account_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  webhook_id: string;
  body: string;
  status: DeliveryStatus;
  attempts: AttemptDoc[];
  retry_index: number;
  next_attempt_at: Date | null;
  /** The sender holding it; null when nobody does. */
  claim_id: string | null;
  /** The claim whose outcome was written last. */
  finished_claim_id?: string;
  created_at: Date;
  note: string;
  /** Keyed hashes of who the event is about (a customer id, a phone); absent on deliveries stored before they were kept. */
  subjects?: string[];
}

/** The log keeps the latest attempts of a delivery (the schedule has ten; replays add more). */
const KEPT_ATTEMPTS = 50;

const toAttemptDoc = (a: Attempt): AttemptDoc => ({
  at: a.at,
  status_code: a.statusCode,
  error: a.error,
  latency_ms: a.latencyMs,
  response_body: a.responseBody,
});

function toDelivery(d: DeliveryDoc): Delivery {
  return {
    id: d._id,
    accountId: d.account_id,
    endpointId: d.endpoint_id,
    eventId: d.event_id,
    eventType: d.event_type,
    webhookId: d.webhook_id,
    body: d.body,
    status: d.status,
    attempts: d.attempts.map((a) => ({
      at: a.at,
      statusCode: a.status_code,
      error: a.error,
      latencyMs: a.latency_ms,
      responseBody: a.response_body,
    })),
    retryIndex: d.retry_index,
    // A claimed delivery's due time is its lease's end, not a planned attempt.
    nextAttemptAt: d.status === 'pending' ? d.next_attempt_at : null,
    createdAt: d.created_at,
    note: d.note,
  };
}

const toDeliveryDoc = (d: Delivery): DeliveryDoc => ({
  _id: d.id,
  account_id: d.accountId,
  endpoint_id: d.endpointId,
  event_id: d.eventId,
  event_type: d.eventType,
  webhook_id: d.webhookId,
  body: d.body,
  status: d.status,
  attempts: d.attempts.map(toAttemptDoc),
  retry_index: d.retryIndex,
  next_attempt_at: d.nextAttemptAt,
  claim_id: null,
  created_at: d.createdAt,
  note: d.note,
});

const DUPLICATE_KEY = 11000;

/** Most outcomes per write. */
const OUTCOMES_PER_WRITE = 500;

interface PendingOutcome {
  id: string;
  claimId: string;
  update: UpdateFilter<DeliveryDoc>;
  resolve: (written: boolean) => void;
  reject: (err: unknown) => void;
}

export class MongoDeliveryRepository implements DeliveryRepository {
  private readonly deliveries: Collection<DeliveryDoc>;
  private readonly outcomes: PendingOutcome[] = [];
  private writing = false;

  /**
   * `subjectsOf`: the keyed hashes of who a delivery body is about (domain/data-erasure.use-cases.ts),
   * stored as `subjects` so a data erasure finds the person's deliveries by index.
   */
  constructor(
    db: Db,
    private readonly subjectsOf: (body: string) => string[] = () => [],
  ) {
    this.deliveries = db.collection<DeliveryDoc>('deliveries');
  }

  async insertNew(deliveries: Delivery[], claim?: { claimId: string; heldUntil: Date }): Promise<Delivery[]> {
    if (deliveries.length === 0) return [];
    const docs = deliveries.map((d) => ({
      ...toDeliveryDoc(d),
      ...(claim ? { next_attempt_at: claim.heldUntil, claim_id: claim.claimId } : {}),
      subjects: this.subjectsOf(d.body),
    }));
    // One insertMany for a whole batch. Unordered: a duplicate on the unique (endpoint, event)
    // index (a redelivered event) is skipped and the others still go in.
    try {
      await this.deliveries.insertMany(docs, { ordered: false });
      return deliveries;
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError)) throw err;
      const errors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) throw err;
      const skipped = new Set(errors.map((e) => e.index));
      return deliveries.filter((_, i) => !skipped.has(i));
    }
  }

  async find(accountId: string, endpointId: string, id: string): Promise<Delivery | null> {
    const d = await this.deliveries.findOne({ _id: id, account_id: accountId, endpoint_id: endpointId });
    return d && toDelivery(d);
  }

  /** From the account_endpoint_created index (indexes.ts). */
  async list(accountId: string, endpointId: string, page: PageQuery): Promise<Page<Delivery>> {
    const filter = { account_id: accountId, endpoint_id: endpointId };
    const { items, nextPageToken } = await keysetPage(this.deliveries, page, { filter, order: { date: 'created_at' } });
    return { items: items.map(toDelivery), nextPageToken };
  }

  async claimDue(now: Date, leaseMs: number, claimId: string, limit: number): Promise<Delivery[]> {
    const due = { status: 'pending' as const, next_attempt_at: { $lte: now } };
    const ids = (
      await this.deliveries
        .find(due, { projection: { _id: 1 } })
        .sort({ next_attempt_at: 1 })
        .limit(limit)
        .toArray()
    ).map((d) => d._id);
    if (ids.length === 0) return [];
    // Each document's update is atomic and re-checks the filter: of several claimers, one takes
    // it (the others find it no longer due). The lease is the due time itself, so a claimer killed
    // mid-attempt leaves it due again when the lease ends.
    const won = await this.deliveries.updateMany(
      { _id: { $in: ids }, ...due },
      { $set: { next_attempt_at: new Date(now.getTime() + leaseMs), claim_id: claimId } },
    );
    if (won.modifiedCount === 0) return [];
    // Read back what this claim won (not the ids found: another claimer may have taken some).
    const docs = await this.deliveries
      .find({ _id: { $in: ids }, claim_id: claimId })
      .sort({ next_attempt_at: 1 })
      .toArray();
    return docs.map((d) => ({ ...toDelivery(d), nextAttemptAt: null }));
  }

  /**
   * Outcomes that arrive while one write is under way go together in the next (one bulkWrite), so
   * a busy sender's attempts share round trips and an idle one's wait for none.
   */
  finish(id: string, claimId: string, o: AttemptOutcome): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const update = {
        $set: {
          status: o.status,
          next_attempt_at: o.nextAttemptAt,
          retry_index: o.retryIndex,
          claim_id: null,
          finished_claim_id: claimId,
          ...(o.note ? { note: o.note } : {}),
        },
        ...(o.attempt ? { $push: { attempts: { $each: [toAttemptDoc(o.attempt)], $slice: -KEPT_ATTEMPTS } } } : {}),
      };
      this.outcomes.push({ id, claimId, update, resolve, reject });
      if (!this.writing) void this.writeOutcomes();
    });
  }

  private async writeOutcomes(): Promise<void> {
    this.writing = true;
    try {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes.splice(0, OUTCOMES_PER_WRITE);
        try {
          const res = await this.deliveries.bulkWrite(
            // Each only while its claim still holds it (a replay or a retake meanwhile wins).
            batch.map((p) => ({ updateOne: { filter: { _id: p.id, claim_id: p.claimId }, update: p.update } })),
            { ordered: false },
          );
          if (res.modifiedCount === batch.length) {
            for (const p of batch) p.resolve(true);
            continue;
          }
          // Some were retaken or replayed meanwhile: which ones, by the claim that wrote last.
          const docs = await this.deliveries
            .find({ _id: { $in: batch.map((p) => p.id) } }, { projection: { finished_claim_id: 1 } })
            .toArray();
          const writtenBy = new Map(docs.map((d) => [d._id, d.finished_claim_id]));
          for (const p of batch) p.resolve(writtenBy.get(p.id) === p.claimId);
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  async replay(accountId: string, endpointId: string, id: string, now: Date): Promise<Delivery | null> {
    const d = await this.deliveries.findOneAndUpdate(
      { _id: id, account_id: accountId, endpoint_id: endpointId },
      { $set: { status: 'pending', next_attempt_at: now, retry_index: 0, claim_id: null, note: '' } },
      { returnDocument: 'after' },
    );
    return d && toDelivery(d);
  }

  async deleteForEndpoint(endpointId: string): Promise<void> {
    await this.deliveries.deleteMany({ endpoint_id: endpointId });
  }
}
