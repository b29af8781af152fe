import type { IndexSpec } from '@feedback/kit-stores';

/** Every index of the gateway's database, created at start-up (main.ts). */
export const gatewayIndexes: IndexSpec = {
  // The operators' console lists every account, newest first, a page at a time.
  accounts: [{ key: { created_at: -1, _id: -1 }, name: 'created' }],
  tokens: [
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { account_id: 1, created_at: -1 }, name: 'account_created' },
  ],
  nodes: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  // The console's people: an e-mail is unique in the deployment, any case (email_key is lower case);
  // an account's users (account_id null: the operators) listed newest first.
  users: [
    { key: { email_key: 1 }, name: 'email_key_unique', unique: true },
    { key: { account_id: 1, created_at: -1, _id: -1 }, name: 'account_created' },
  ],
  // Console sessions and invites are keyed by their secret's SHA-256 (_id). The TTL indexes are
  // housekeeping: the code checks expires_at itself.
  sessions: [
    { key: { user_id: 1 }, name: 'user' },
    { key: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 },
  ],
  invites: [
    { key: { user_id: 1 }, name: 'user' },
    { key: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 },
  ],
  // SMS sharings' Idempotency-Key records (idempotency-keys.repository.ts). TTL
  // housekeeping only (the server deletes about once a minute); claim() checks expires_at itself.
  idempotency_keys: [{ key: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 }],
};
