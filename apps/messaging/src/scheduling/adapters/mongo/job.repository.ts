import { insertManyOnce } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { JobRepository, SharingJob } from '../../ports.js';

interface JobDoc {
  /** `<sharing id>.j<reminder>`; `scheduler` is the lead's lease. */
  _id: string;
  account_id: string;
  sharing_id: string;
  campaign_id: string;
  reminder: number;
  due_at: Date;
  state: 'waiting' | 'running' | 'done' | 'cancelled';
  owner: string | null;
  lease_until: Date | null;
}

interface LeaseDoc {
  _id: 'scheduler';
  owner: string;
  until: Date;
}

const LEASE_ID = 'scheduler';

/** The waiting steps of sharings (collection `sms_jobs`), each taken under a lease. */
export class MongoJobRepository implements JobRepository {
  private readonly docs: Collection<JobDoc>;
  private readonly leases: Collection<LeaseDoc>;

  constructor(db: Db) {
    this.docs = db.collection<JobDoc>('sms_jobs');
    this.leases = db.collection<LeaseDoc>('sms_scheduler');
  }

  async schedule(jobs: SharingJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await insertManyOnce(
      this.docs,
      jobs.map((j) => ({
        _id: j.id,
        account_id: j.accountId,
        sharing_id: j.sharingId,
        campaign_id: j.campaignId,
        reminder: j.reminder,
        due_at: j.dueAt,
        state: 'waiting' as const,
        owner: null,
        lease_until: null,
      })),
    );
  }

  async lead(owner: string, now: Date, until: Date): Promise<boolean> {
    try {
      // Taken when free (expired) or already ours; the unique _id makes one of two racing upserts fail.
      const d = await this.leases.findOneAndUpdate(
        { _id: LEASE_ID, $or: [{ owner }, { until: { $lt: now } }] },
        { $set: { owner, until } },
        { upsert: true, returnDocument: 'after' },
      );
      return d?.owner === owner;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async claimDue(now: Date, owner: string, leaseUntil: Date): Promise<SharingJob | null> {
    const d = await this.docs.findOneAndUpdate(
      {
        $or: [
          { state: 'waiting', due_at: { $lte: now } },
          { state: 'running', lease_until: { $lt: now } },
        ],
      },
      { $set: { state: 'running', owner, lease_until: leaseUntil } },
      { sort: { due_at: 1 }, returnDocument: 'after' },
    );
    return d ? toJob(d) : null;
  }

  async renew(id: string, owner: string, leaseUntil: Date): Promise<boolean> {
    const r = await this.docs.updateOne({ _id: id, owner, state: 'running' }, { $set: { lease_until: leaseUntil } });
    return r.matchedCount === 1;
  }

  async postpone(id: string, owner: string, dueAt: Date): Promise<void> {
    await this.docs.updateOne(
      { _id: id, owner, state: 'running' },
      { $set: { state: 'waiting', due_at: dueAt, owner: null, lease_until: null } },
    );
  }

  async finish(id: string, owner: string): Promise<void> {
    await this.docs.updateOne({ _id: id, owner, state: 'running' }, { $set: { state: 'done', lease_until: null } });
  }

  async cancelBySharing(sharingId: string): Promise<number> {
    const r = await this.docs.updateMany(
      { sharing_id: sharingId, state: { $in: ['waiting', 'running'] } },
      { $set: { state: 'cancelled', lease_until: null } },
    );
    return r.modifiedCount;
  }
}

const toJob = (d: JobDoc): SharingJob => ({
  id: d._id,
  accountId: d.account_id,
  sharingId: d.sharing_id,
  campaignId: d.campaign_id,
  reminder: d.reminder,
  dueAt: d.due_at,
});
