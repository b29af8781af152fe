import type { IndexSpec } from '@feedback/kit-stores';

/*
 * Partial unique indexes: a customer without an e-mail (say) is not in the e-mail index, so
 * any number of them may exist. The local server (SecantusDB) picks an index by itself only
 * when the filter names exactly that index's fields: a partial index, or any filter with one
 * field more than its index (`{_id, account_id}`, the active query's `answered_at` and
 * `expires_at`), is a collection scan there, over 2,000,000 links in the benchmark. So every
 * such query names its index in `hint`; MongoDB accepts the same hints.
 */

/** Lookups by `_id` that also check the account (or the activation): the primary key. */
export const ID_INDEX = '_id_';
/** The same, for findOneAndUpdate (whose typings take a key pattern only). */
export const ID_KEY = { _id: 1 } as const;
export const CUSTOMER_INDEX = {
  externalId: 'account_external_id',
  email: 'account_email',
  phone: 'account_phone',
} as const;

export const LINK_INDEX = { customerNode: 'account_customer_node' } as const;

export const surveyIndexes: IndexSpec = {
  channels: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  customers: [
    {
      key: { account_id: 1, external_id: 1 },
      name: CUSTOMER_INDEX.externalId,
      unique: true,
      partialFilterExpression: { external_id: { $exists: true } },
    },
    {
      key: { account_id: 1, email_lower: 1 },
      name: CUSTOMER_INDEX.email,
      unique: true,
      partialFilterExpression: { email_lower: { $exists: true } },
    },
    { key: { account_id: 1, phone: 1 }, name: CUSTOMER_INDEX.phone, unique: true, partialFilterExpression: { phone: { $exists: true } } },
  ],
  links: [
    { key: { account_id: 1, channel_id: 1, customer_id: 1 }, name: 'account_channel_customer', unique: true },
    { key: { token: 1 }, name: 'token', unique: true },
    { key: { account_id: 1, customer_id: 1, node_id: 1 }, name: LINK_INDEX.customerNode },
  ],
  responses: [
    { key: { link_id: 1, activation: 1 }, name: 'link_activation', unique: true },
    { key: { account_id: 1, flow_id: 1, sort_key: -1 }, name: 'account_flow_newest' },
    { key: { account_id: 1, sort_key: -1 }, name: 'account_newest' },
    { key: { event_pending_since: 1 }, name: 'event_pending', partialFilterExpression: { event_pending_since: { $exists: true } } },
  ],
};
