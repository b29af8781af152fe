import type { IndexSpec } from '@feedback/kit-stores';

export const fileServiceIndexes: IndexSpec = {
  directories: [{ key: { account_id: 1, name: 1 }, name: 'account_name', unique: true }],
  files: [
    { key: { blob_token: 1 }, name: 'blob_token', unique: true },
    { key: { account_id: 1, directory_id: 1, created_at: -1 }, name: 'directory_created' },
    { key: { directory_id: 1, filename: 1, processing_state: 1, created_at: -1 }, name: 'name_state_created' },
    { key: { expiry_done: 1, created_at: 1 }, name: 'expiry_due' },
  ],
};
