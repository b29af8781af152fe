import type { IndexSpec } from '@feedback/kit-stores';

export const messagingIndexes: IndexSpec = {
  campaigns: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  sharings: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  sharing_recipients: [{ key: { sharing_id: 1, phone: 1 }, name: 'sharing_phone' }],
  sms_messages: [{ key: { sharing_id: 1 }, name: 'sharing' }],
  directory_bindings: [
    { key: { directory_id: 1, file_name: 1 }, name: 'directory_file', unique: true },
    { key: { account_id: 1, campaign_id: 1, updated_at: -1 }, name: 'account_campaign' },
  ],
  csv_imports: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  // The recording provider's records (adapters/mongo/recording.provider.ts); the collection keeps its stored name.
  sms_outbox: [
    { key: { account_id: 1, phone: 1, created_at: -1, _id: -1 }, name: 'account_phone_created' },
    { key: { account_id: 1, created_at: -1, _id: -1 }, name: 'account_created' },
  ],
};
