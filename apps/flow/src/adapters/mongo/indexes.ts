import type { IndexSpec } from '@feedback/kit-stores';

export const flowIndexes: IndexSpec = {
  flows: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
};
