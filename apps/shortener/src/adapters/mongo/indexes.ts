import type { IndexSpec } from '@feedback/kit-stores';

/**
 * Codes and domain names are the documents' `_id`s, so their uniqueness needs no extra index;
 * an account's domains are listed oldest first.
 */
export const shortenerIndexes: IndexSpec = {
  domains: [{ key: { account_id: 1, created_at: 1 }, name: 'account_created' }],
  // A data erasure deletes an account's links to the person's survey links by their target.
  links: [
    { key: { account_id: 1, full_url: 1 }, name: 'account_full_url' },
    // An account's links, newest first (keyset by created_at and code), whole or by domain or tag.
    { key: { account_id: 1, created_at: -1, _id: -1 }, name: 'account_created' },
    { key: { account_id: 1, domain: 1, created_at: -1, _id: -1 }, name: 'account_domain_created' },
    { key: { account_id: 1, tags: 1, created_at: -1, _id: -1 }, name: 'account_tags_created' },
  ],
  // A link's hour counters in time order (its stats): the local server scans for an `_id` range.
  link_hours: [{ key: { code: 1, start: 1 }, name: 'code_start' }],
};
