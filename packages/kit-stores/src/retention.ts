import type {
  AccountRetention,
  Logger,
  RetentionKind,
  RetentionPass,
  RetentionSettings,
  RetentionTarget,
  SweepLimits,
} from '@feedback/kit-core';
import { env } from '@feedback/kit-core/runtime';
import type { Collection, Db, Document, Filter } from 'mongodb';
import type { MongoLease } from './mongo-lease.js';
import { isDuplicateKeyError } from './mongo.js';
import { startPeriodicJob } from './periodic-job.js';

/**
 * The retention sweep's variables, the same in every service that has one (docs/api.md
 * "Retention"); each service adds its own `<KIND>_RETENTION_DAYS`.
 */
export const retentionSweepEnv = {
  /** The compacted topic of the accounts' settings, published by the gateway. */
  ACCOUNT_RETENTION_TOPIC: env.string('account.retention'),
  /** How often the leading replica sweeps. */
  RETENTION_SWEEP_INTERVAL_MS: env.int(5 * 60_000, 1_000),
  /** Documents per delete. */
  RETENTION_BATCH_SIZE: env.int(500, 1),
  /** Deletes per sweep: a larger backlog takes several sweeps. */
  RETENTION_MAX_BATCHES: env.int(20, 1),
  /** Between two deletes of a sweep. */
  RETENTION_PAUSE_MS: env.int(200, 0),
};

/** The sweep's limits from those variables. */
export function sweepLimits(
  config: { RETENTION_BATCH_SIZE: number; RETENTION_MAX_BATCHES: number; RETENTION_PAUSE_MS: number },
  offset = 0,
): SweepLimits {
  return {
    offset,
    batchSize: config.RETENTION_BATCH_SIZE,
    maxBatches: config.RETENTION_MAX_BATCHES,
    pause: () => new Promise((r) => setTimeout(r, config.RETENTION_PAUSE_MS)),
  };
}

interface SettingDoc {
  _id: string;
  days: Partial<Record<RetentionKind, number>>;
  version: number;
}

/**
 * The accounts' retention settings a service consumed from `account.retention` (collection
 * `account_retention` of its own database): few documents, one per account an operator set.
 */
export class MongoRetentionSettings implements RetentionSettings {
  private readonly docs: Collection<SettingDoc>;

  constructor(db: Db) {
    this.docs = db.collection<SettingDoc>('account_retention');
  }

  async list(): Promise<AccountRetention[]> {
    const docs = await this.docs.find({}).toArray();
    return docs.map((d) => ({ accountId: d._id, days: d.days, version: d.version }));
  }

  async apply(s: AccountRetention): Promise<void> {
    try {
      // Only over an older version; a newer one there makes the upsert's insert collide on _id.
      await this.docs.updateOne(
        { _id: s.accountId, version: { $lt: s.version } },
        { $set: { days: s.days, version: s.version } },
        { upsert: true },
      );
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }
}

export interface MongoRetentionTargetOptions {
  /** The date the retention counts from (created_at, answered_at, expires_at). */
  dateField: string;
  /** The value compared with `dateField` for a cutoff: the date itself unless the field holds, say, an ISO string that sorts. */
  bound?: (before: Date) => unknown;
  /** Absent for a collection swept by date alone. */
  accountField?: string;
  /** Runs before the batch's documents go, with their ids: what hangs off them goes first, so a crash between leaves no orphan. */
  beforeDelete?: (ids: unknown[]) => Promise<void>;
}

/**
 * Deletes by ids read first (at most `limit`), not one unbounded deleteMany: a batch stays small
 * on the server whatever the backlog. Wants an index on (accountField, dateField) and one on
 * dateField for the default's pass.
 */
export function mongoRetentionTarget<T extends Document>(
  name: string,
  collection: Collection<T>,
  o: MongoRetentionTargetOptions,
): RetentionTarget {
  return {
    name,
    async deleteBatch(pass: RetentionPass, limit: number): Promise<number> {
      const filter: Document = { [o.dateField]: { $lt: o.bound ? o.bound(pass.before) : pass.before } };
      if (o.accountField && pass.accountId !== undefined) filter[o.accountField] = pass.accountId;
      else if (o.accountField && pass.exceptAccounts?.length) filter[o.accountField] = { $nin: pass.exceptAccounts };
      const ids = (
        await collection
          .find(filter as Filter<T>, { projection: { _id: 1 } })
          .limit(limit)
          .toArray()
      ).map((d) => d._id as unknown);
      if (ids.length === 0) return 0;
      await o.beforeDelete?.(ids);
      const r = await collection.deleteMany({ _id: { $in: ids } } as Filter<T>);
      return r.deletedCount;
    },
  };
}

/**
 * Runs `sweep` every `intervalMs` on the one replica holding the lease (held a little over two
 * intervals, renewed each sweep, so a stopped leader's replica takes over within that): a
 * periodic job (periodic-job.ts), first run after one interval. `close` waits for the sweep under way.
 */
export function startRetentionJob(o: {
  lease: MongoLease;
  intervalMs: number;
  sweep: (offset: number) => Promise<Record<string, number>>;
  logger: Logger;
}): { close(): Promise<void> } {
  let sweeps = 0;
  return startPeriodicJob({
    name: 'retention-sweep',
    everyMs: o.intervalMs,
    runAtStart: false,
    lease: o.lease,
    logger: o.logger,
    run: async () => {
      const deleted = await o.sweep(sweeps++);
      if (Object.values(deleted).some((n) => n > 0)) o.logger.info({ deleted }, 'retention sweep deleted expired records');
    },
  });
}
