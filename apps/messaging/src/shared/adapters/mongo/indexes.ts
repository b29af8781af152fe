import type { IndexSpec, RetiredIndexes } from '@feedback/kit-stores';

/** Replaced by an index of the same fields and `_id` (the list's ties). */
export const messagingRetiredIndexes: RetiredIndexes = { campaigns: ['account_created'], sharings: ['account_created'] };

export const messagingIndexes: IndexSpec = {
  // ListSmsCampaigns' pages: a page's ties (one instant, then smaller ids) are one range too.
  campaigns: [{ key: { account_id: 1, created_at: -1, _id: -1 }, name: 'account_created_id' }],
  sharings: [
    // ListSmsSharings, of the account or of one campaign; the retention sweep's pass of an account.
    { key: { account_id: 1, created_at: -1, _id: -1 }, name: 'account_created_id' },
    { key: { account_id: 1, campaign_id: 1, created_at: -1, _id: -1 }, name: 'account_campaign_created_id' },
    // The sharing.completed sweep: the recent sharings not completed yet, oldest first; with the id,
    // so that a sweep's next page (the rest of an instant) is an index range too.
    { key: { completed_at: 1, created_at: 1, _id: 1 }, name: 'completed_created_id' },
    // The retention sweep's default pass (erasure/adapters/mongo/retention.sweep.ts); an account's uses account_created_id.
    { key: { created_at: 1 }, name: 'created' },
    // The campaign report's relay: sharings whose accepted recipients are not counted yet (only those are in it).
    { key: { 'tally_owed.at': 1 }, name: 'tally_owed', partialFilterExpression: { 'tally_owed.at': { $gte: new Date(0) } } },
  ],
  sharing_recipients: [{ key: { sharing_id: 1, phone: 1 }, name: 'sharing_phone' }],
  sms_messages: [
    { key: { sharing_id: 1 }, name: 'sharing' },
    // A sharing's recipients of one status (ListSharingRecipients' filter), in phone order: `_id` is `<sharing>.<phone>`.
    { key: { sharing_id: 1, status: 1, _id: 1 }, name: 'sharing_status_id' },
    // An inbound STOP finds the accounts that texted its sender.
    { key: { phone: 1, account_id: 1 }, name: 'phone_account' },
    // The retention sweep: an account's pass, the default's.
    { key: { account_id: 1, created_at: 1 }, name: 'account_created' },
    { key: { created_at: 1 }, name: 'created' },
    // Report events not yet published (delivery-report.ts publishOwedReports): only those records are in it.
    { key: { report_owed: 1 }, name: 'report_owed', partialFilterExpression: { report_owed: { $gte: new Date(0) } } },
    // A click's first message (reports/ click facts): only first messages with a link are in it ($gte '': every string, docs/decisions.md).
    { key: { link_code: 1 }, name: 'link_code', partialFilterExpression: { link_code: { $gte: '' } } },
    // Facts the campaign report's relay has not counted yet (reports/adapters/mongo/owed-tallies.repository.ts): only those records.
    { key: { 'tally_owed.at': 1 }, name: 'tally_owed', partialFilterExpression: { 'tally_owed.at': { $gte: new Date(0) } } },
  ],
  // The suppression lists: a sharing's slice of phones is one $in on the first, the list the second.
  sms_opt_outs: [
    { key: { account_id: 1, phone: 1 }, name: 'account_phone', unique: true },
    { key: { account_id: 1, created_at: -1, _id: -1 }, name: 'account_created' },
  ],
  // Phones taken off a list, for other processes' snapshots (opt-outs/adapters/opt-out.snapshots.ts); gone after a day.
  sms_opt_out_removals: [
    { key: { account_id: 1, removed_at: 1 }, name: 'account_removed' },
    { key: { removed_at: 1 }, name: 'expiry', expireAfterSeconds: 86_400 },
  ],
  directory_bindings: [
    { key: { directory_id: 1, file_name: 1 }, name: 'directory_file', unique: true },
    { key: { account_id: 1, campaign_id: 1, updated_at: -1 }, name: 'account_campaign' },
  ],
  // Waiting steps (scheduled sharings, reminders): the due ones first; a sharing's, to cancel them.
  sms_jobs: [
    { key: { state: 1, due_at: 1 }, name: 'state_due' },
    { key: { sharing_id: 1 }, name: 'sharing' },
  ],
  // The campaign report's counters (reports/adapters/mongo/tally-counters.repository.ts): a campaign's buckets in time order.
  campaign_tallies: [{ key: { campaign_id: 1, start: 1 }, name: 'campaign_start' }],
  sharing_tallies: [{ key: { campaign_id: 1 }, name: 'campaign' }],
  tally_journal: [{ key: { created_at: 1 }, name: 'created' }],
  csv_imports: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  // The recording provider's records (providers/adapters/mongo/recording.provider.ts); the collection keeps its stored name.
  sms_outbox: [
    { key: { account_id: 1, phone: 1, created_at: -1, _id: -1 }, name: 'account_phone_created' },
    { key: { account_id: 1, created_at: -1, _id: -1 }, name: 'account_created' },
    // The retention sweep's default pass.
    { key: { created_at: 1 }, name: 'created' },
  ],
};
