import type { IndexSpec } from '@feedback/kit-stores';

/**
 * Codes and domain names are the documents' `_id`s, so their uniqueness needs no extra index;
 * an account's domains are listed oldest first.
 */
export const shortenerIndexes: IndexSpec = {
  domains: [{ key: { account_id: 1, created_at: 1 }, name: 'account_created' }],
  // A data erasure deletes an account's links to the person's survey links by their target.
  links: [{ key: { account_id: 1, full_url: 1 }, name: 'account_full_url' }],
};
