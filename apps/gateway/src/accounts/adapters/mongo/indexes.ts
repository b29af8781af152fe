import type { IndexDescription } from 'mongodb';

export const gatewayIndexes: Record<string, IndexDescription[]> = {
  tokens: [
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { account_id: 1, created_at: -1 }, name: 'account_created' },
  ],
  nodes: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
};
