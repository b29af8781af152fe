import type { IndexSpec } from '@feedback/kit-stores';

export const webhooksIndexes: IndexSpec = {
  endpoints: [
    { key: { account_id: 1, created_at: -1, _id: -1 }, name: 'account_created' },
    { key: { account_id: 1, events: 1, enabled: 1 }, name: 'account_events' },
  ],
  deliveries: [
    // A redelivered Kafka record makes no second delivery.
    { key: { endpoint_id: 1, event_id: 1 }, name: 'endpoint_event', unique: true },
    { key: { status: 1, next_attempt_at: 1 }, name: 'due' },
    { key: { endpoint_id: 1, created_at: -1, _id: -1 }, name: 'endpoint_created' },
    // The delivery log's pages: the local server scans the collection for a query with an
    // equality its index lacks, and the list asks for the account as well as the endpoint.
    { key: { account_id: 1, endpoint_id: 1, created_at: -1, _id: -1 }, name: 'account_endpoint_created' },
    // A data erasure deletes an account's deliveries about a person by their subject hashes.
    { key: { account_id: 1, subjects: 1 }, name: 'account_subjects' },
    // The retention sweep (adapters/mongo/retention.sweep.ts): an account's pass, the default's.
    { key: { account_id: 1, created_at: 1 }, name: 'account_created' },
    { key: { created_at: 1 }, name: 'created' },
  ],
  // Counts of test events per account and minute: housekeeping only, the window is in the id.
  test_sends: [{ key: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 }],
};
