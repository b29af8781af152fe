import type { IndexSpec } from '@feedback/kit-stores';

/**
 * Codes and domain names are the documents' `_id`s, so their uniqueness needs no extra index;
 * an account's domains are listed oldest first.
 */
export const shortenerIndexes: IndexSpec = {
  domains: [{ key: { account_id: 1, created_at: 1 }, name: 'account_created' }],
};
