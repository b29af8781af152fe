import { sweepRetention, type RetentionSettings, type SweepLimits } from '@feedback/kit-core';
import { mongoRetentionTarget } from '@feedback/kit-stores';
import type { Db } from 'mongodb';

/**
 * What `messages` retention deletes in this service (docs/api.md "Retention"): the SMS message
 * records, the recording provider's outbox and the sharings, each sharing's recipients and
 * waiting steps first. Opt-outs stay: they must outlive any message. Answers one sweep.
 */
export function messagingRetentionSweep(db: Db, settings: RetentionSettings, messagesDays: number) {
  const recipients = db.collection('sharing_recipients');
  const jobs = db.collection('sms_jobs');
  const targets = [
    mongoRetentionTarget('sms_messages', db.collection('sms_messages'), { dateField: 'created_at', accountField: 'account_id' }),
    mongoRetentionTarget('sms_outbox', db.collection('sms_outbox'), { dateField: 'created_at', accountField: 'account_id' }),
    mongoRetentionTarget('sharings', db.collection('sharings'), {
      dateField: 'created_at',
      accountField: 'account_id',
      beforeDelete: async (ids) => {
        await recipients.deleteMany({ sharing_id: { $in: ids } });
        await jobs.deleteMany({ sharing_id: { $in: ids } });
      },
    }),
  ];
  return (now: Date, limits: SweepLimits) =>
    sweepRetention({ settings, kinds: [{ kind: 'messages', defaultDays: messagesDays, targets }], now, limits });
}
