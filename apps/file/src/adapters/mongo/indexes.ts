import type { IndexSpec } from '@feedback/kit-stores';

export const fileServiceIndexes: IndexSpec = {
  directories: [{ key: { account_id: 1, name: 1 }, name: 'account_name', unique: true }],
  files: [
    { key: { blob_token: 1 }, name: 'blob_token', unique: true },
    { key: { account_id: 1, directory_id: 1, created_at: -1 }, name: 'directory_created' },
    { key: { directory_id: 1, filename: 1, created_at: -1 }, name: 'directory_name_created' },
    { key: { expiry_done: 1, created_at: 1 }, name: 'expiry_due' },
    // The maintenance job's look for file.processed events not out yet.
    { key: { processed_event_due: 1 }, name: 'processed_event_due' },
  ],
  expiry_leases: [
    { key: { file_id: 1, attempt: -1 }, name: 'file_attempt' },
    // Housekeeping: a lease a week past its end is never read again (a done file is not listed
    // as due; an unfinished one takes its next attempt from the newest lease left, or 1).
    { key: { until: 1 }, name: 'until_ttl', expireAfterSeconds: 7 * 24 * 3600 },
  ],
  object_sweep: [{ key: { not_before: 1 }, name: 'not_before' }],
  upload_outbox: [{ key: { at: 1 }, name: 'at' }],
};
