import type { PersonalDataProtector } from '@feedback/kit-core';
import { insertOnce } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { DataErasure, ErasureCounts, ErasureRepository, ErasureRequest } from '../../domain/data-erasure.js';

interface CountsDoc {
  customers: number;
  messages: number;
  responses: number;
  links: number;
  webhook_deliveries: number;
  opt_outs_kept: number;
}

interface ErasureDoc {
  _id: string;
  account_id: string;
  status: 'pending' | 'completed';
  requested_at: Date;
  completed_at: Date | null;
  subject_hashes: string[];
  expected_services: string[];
  progress: Record<string, CountsDoc>;
  /** The event to publish, sealed (PersonalDataProtector, bound to the erasure id); unset once published. */
  sealed_request?: string;
}

const toCountsDoc = (c: ErasureCounts): CountsDoc => ({
  customers: c.customers,
  messages: c.messages,
  responses: c.responses,
  links: c.links,
  webhook_deliveries: c.webhookDeliveries,
  opt_outs_kept: c.optOutsKept,
});

const toCounts = (c: CountsDoc): ErasureCounts => ({
  customers: c.customers ?? 0,
  messages: c.messages ?? 0,
  responses: c.responses ?? 0,
  links: c.links ?? 0,
  webhookDeliveries: c.webhook_deliveries ?? 0,
  optOutsKept: c.opt_outs_kept ?? 0,
});

/** Collection `data_erasures`: one document per request, looked up by `_id`. */
export class MongoErasureRepository implements ErasureRepository {
  private readonly docs: Collection<ErasureDoc>;

  constructor(
    db: Db,
    private readonly protector: PersonalDataProtector,
  ) {
    this.docs = db.collection<ErasureDoc>('data_erasures');
  }

  async insert(e: DataErasure): Promise<void> {
    await insertOnce(this.docs, {
      _id: e.id,
      account_id: e.accountId,
      status: e.status,
      requested_at: e.requestedAt,
      completed_at: e.completedAt,
      subject_hashes: e.subjectHashes,
      expected_services: e.expectedServices,
      progress: Object.fromEntries(Object.entries(e.progress).map(([s, c]) => [s, toCountsDoc(c)])),
      ...(e.unpublished ? { sealed_request: this.seal(e.unpublished) } : {}),
    });
  }

  async findById(accountId: string, id: string): Promise<DataErasure | null> {
    const doc = await this.docs.findOne({ _id: id, account_id: accountId });
    return doc ? this.toErasure(doc) : null;
  }

  async recordProgress(id: string, service: string, counts: ErasureCounts): Promise<DataErasure | null> {
    // Only a service's first report is written (the guard on the field), atomically.
    await this.docs.updateOne(
      { _id: id, [`progress.${service}`]: { $exists: false } },
      { $set: { [`progress.${service}`]: toCountsDoc(counts) } },
    );
    const doc = await this.docs.findOne({ _id: id });
    return doc ? this.toErasure(doc) : null;
  }

  async markCompleted(id: string, at: Date): Promise<void> {
    await this.docs.updateOne({ _id: id, status: 'pending' }, { $set: { status: 'completed', completed_at: at } });
  }

  async markPublished(id: string): Promise<void> {
    await this.docs.updateOne({ _id: id }, { $unset: { sealed_request: '' } });
  }

  private seal(r: ErasureRequest): string {
    return this.protector.seal(JSON.stringify(r), `data_erasure:${r.erasureId}`);
  }

  private toErasure(d: ErasureDoc): DataErasure {
    const unpublished = d.sealed_request ? this.open(d._id, d.sealed_request) : undefined;
    return {
      id: d._id,
      accountId: d.account_id,
      status: d.status,
      requestedAt: d.requested_at,
      completedAt: d.completed_at ?? null,
      subjectHashes: d.subject_hashes ?? [],
      expectedServices: d.expected_services ?? [],
      progress: Object.fromEntries(Object.entries(d.progress ?? {}).map(([s, c]) => [s, toCounts(c)])),
      ...(unpublished ? { unpublished } : {}),
    };
  }

  private open(id: string, sealed: string): ErasureRequest {
    const r = JSON.parse(this.protector.open(sealed, `data_erasure:${id}`)) as ErasureRequest & { requestedAt: string };
    return { ...r, requestedAt: new Date(r.requestedAt) };
  }
}
