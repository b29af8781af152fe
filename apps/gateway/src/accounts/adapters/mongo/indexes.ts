import type { IndexSpec } from '@feedback/kit-stores';

/** Every index of the gateway's database, created at start-up (main.ts). */
export const gatewayIndexes: IndexSpec = {
  tokens: [
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { account_id: 1, created_at: -1 }, name: 'account_created' },
  ],
  nodes: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  // SMS sharings' Idempotency-Key records (idempotency-keys.repository.ts). TTL
  // housekeeping only (the server deletes about once a minute); claim() checks expires_at itself.
  idempotency_keys: [{ key: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 }],
};
