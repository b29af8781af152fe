import type { Logger } from '@feedback/kit-core';
import type { Db } from 'mongodb';
import { checkLimitsConfig, limitsConfigDocument } from './limits-config.js';
import type { LimitsScope, LimitsSnapshot, LimitsStore, StoredLimits } from './live-limits.js';

/** One stored setting: `_id` "deployment" or "account:<account id>", the file's document, and when it was set. */
interface LimitsDoc {
  _id: string;
  account_id?: string;
  enabled: boolean;
  tiers: { name: string; limit: number; window_seconds: number }[];
  updated_at: Date;
}

const idOf = (scope: LimitsScope) => (scope.kind === 'deployment' ? 'deployment' : `account:${scope.accountId}`);

/**
 * The limits in one small collection of the gateway's database (default `sms_limits`): the whole
 * collection is read at every refresh (one document per account with its own limits, a few at
 * most in practice), so no index beyond `_id` is needed.
 */
export function mongoLimitsStore(db: Db, logger: Logger, collectionName = 'sms_limits'): LimitsStore {
  const docs = db.collection<LimitsDoc>(collectionName);
  const log = logger.child({ component: 'limits-store', collection: collectionName });
  return {
    async load(): Promise<LimitsSnapshot> {
      const snapshot: LimitsSnapshot = { deployment: null, accounts: new Map() };
      for (const doc of await docs.find({}).toArray()) {
        // Written through the same validation; a document edited by hand into something invalid is skipped, not fatal.
        const checked = checkLimitsConfig({ enabled: doc.enabled, tiers: doc.tiers });
        if (!checked.ok) {
          log.error({ id: doc._id, issues: checked.issues }, 'stored SMS limits are invalid; ignored');
          continue;
        }
        const stored: StoredLimits = { config: checked.config, updatedAt: doc.updated_at };
        if (doc._id === 'deployment') snapshot.deployment = stored;
        else if (doc.account_id !== undefined) snapshot.accounts.set(doc.account_id, stored);
      }
      return snapshot;
    },
    async put(scope, config, now) {
      const doc: LimitsDoc = {
        _id: idOf(scope),
        ...(scope.kind === 'account' && { account_id: scope.accountId }),
        ...limitsConfigDocument(config),
        updated_at: now,
      };
      await docs.replaceOne({ _id: doc._id }, doc, { upsert: true });
    },
    async remove(scope) {
      return (await docs.deleteOne({ _id: idOf(scope) })).deletedCount > 0;
    },
  };
}
