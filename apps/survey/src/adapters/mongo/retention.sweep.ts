import { sweepRetention, type RetentionSettings, type SweepLimits } from '@feedback/kit-core';
import { mongoRetentionTarget } from '@feedback/kit-stores';
import type { Db } from 'mongodb';

const DAY_MS = 86_400_000;

/**
 * What retention deletes in this service (docs/api.md "Retention"): responses past the account's
 * `responses` retention (or RESPONSES_RETENTION_DAYS), and survey links expired more than
 * `linkGraceDays` ago: until then an old link still answers 410, after it 404. Answers one sweep.
 */
export function surveyRetentionSweep(db: Db, settings: RetentionSettings, o: { responsesDays: number; linkGraceDays: number }) {
  // sort_key is answered_at's ISO string then the id: a range of it is a range of dates, served by the account_newest index.
  const responses = mongoRetentionTarget('responses', db.collection('responses'), {
    dateField: 'sort_key',
    bound: (before) => before.toISOString(),
    accountField: 'account_id',
  });
  const links = mongoRetentionTarget('links', db.collection('links'), { dateField: 'expires_at' });
  return (now: Date, limits: SweepLimits) =>
    sweepRetention({
      settings,
      kinds: [{ kind: 'responses', defaultDays: o.responsesDays, targets: [responses] }],
      extra: [{ target: links, pass: { before: new Date(now.getTime() - o.linkGraceDays * DAY_MS) } }],
      now,
      limits,
    });
}
