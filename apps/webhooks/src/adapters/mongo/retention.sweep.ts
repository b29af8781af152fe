import { sweepRetention, type RetentionSettings, type SweepLimits } from '@feedback/kit-core';
import { mongoRetentionTarget } from '@feedback/kit-stores';
import type { Db } from 'mongodb';

/**
 * What `webhook_deliveries` retention deletes (docs/api.md "Retention"): the delivery log (each
 * delivery's body and attempts) past the account's value or WEBHOOK_DELIVERIES_RETENTION_DAYS.
 * Answers one sweep.
 */
export function webhooksRetentionSweep(db: Db, settings: RetentionSettings, deliveriesDays: number) {
  const deliveries = mongoRetentionTarget('deliveries', db.collection('deliveries'), {
    dateField: 'created_at',
    accountField: 'account_id',
  });
  return (now: Date, limits: SweepLimits) =>
    sweepRetention({ settings, kinds: [{ kind: 'webhook_deliveries', defaultDays: deliveriesDays, targets: [deliveries] }], now, limits });
}
