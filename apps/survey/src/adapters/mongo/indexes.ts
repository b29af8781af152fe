import type { IndexSpec } from '@feedback/kit-stores';

/*
 * Partial unique indexes: a customer without an e-mail (say) is not in the e-mail index, so
 * any number of them may exist. The local server (SecantusDB) does not pick a partial index
 * by itself, so the repositories name these in `hint`; MongoDB accepts the same hint.
 */
export const CUSTOMER_INDEX = {
  externalId: 'account_external_id',
  email: 'account_email',
  phone: 'account_phone',
} as const;

export const surveyIndexes: IndexSpec = {
  channels: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  customers: [
    { key: { account_id: 1, external_id: 1 }, name: CUSTOMER_INDEX.externalId, unique: true, partialFilterExpression: { external_id: { $exists: true } } },
    { key: { account_id: 1, email_lower: 1 }, name: CUSTOMER_INDEX.email, unique: true, partialFilterExpression: { email_lower: { $exists: true } } },
    { key: { account_id: 1, phone: 1 }, name: CUSTOMER_INDEX.phone, unique: true, partialFilterExpression: { phone: { $exists: true } } },
  ],
  links: [
    { key: { account_id: 1, channel_id: 1, customer_id: 1 }, name: 'account_channel_customer', unique: true },
    { key: { token: 1 }, name: 'token', unique: true },
    { key: { account_id: 1, customer_id: 1, node_id: 1 }, name: 'account_customer_node' },
  ],
  responses: [
    { key: { link_id: 1, activation: 1 }, name: 'link_activation', unique: true },
    { key: { account_id: 1, flow_id: 1, sort_key: -1 }, name: 'account_flow_newest' },
    { key: { account_id: 1, sort_key: -1 }, name: 'account_newest' },
    { key: { event_pending_since: 1 }, name: 'event_pending', partialFilterExpression: { event_pending_since: { $exists: true } } },
  ],
};
