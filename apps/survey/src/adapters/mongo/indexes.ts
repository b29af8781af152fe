import type { IndexSpec } from '@feedback/kit-stores';

/*
 * Partial unique indexes: a customer without an e-mail (say) is not in the e-mail index, so any
 * number of them may exist. Each partial filter is a string range (`{$gte: ''}`: every string),
 * not `{$exists: true}`: the local server (SecantusDB 0.7) uses a partial index only when it can
 * prove the query implies the filter, and it reasons about equality and ranges, not `$exists`;
 * MongoDB proves both. No query names an index (`hint`): SecantusDB answers a hint by walking the
 * WHOLE index, so a hinted lookup costs a scan of the collection (docs/decisions.md "Local
 * MongoDB server"). Every query is shaped so that both servers pick an index by themselves:
 * equality on exactly an index's fields, or `_id` first (a point lookup, the rest checked on the
 * one document); what an index cannot serve is filtered in code (link.repository.ts). `$in`
 * on an identifier is not served by its partial index on SecantusDB (not even with the
 * `$gte: ''` bound added: 4 s for two phones, 50 s for 200, at 200,000 customers of one
 * account), so customers are looked up by equality only; `$in` on the links' unique index is
 * (40 ms for 200 customer ids at 200,000 links).
 */

export const CUSTOMER_INDEX = {
  externalId: 'account_external_id_str',
  email: 'account_email_str',
  phone: 'account_phone_str',
} as const;

/** Every string: the partial filter of the identifier indexes (see above). */
const ANY_STRING = { $gte: '' };

export const surveyIndexes: IndexSpec = {
  channels: [{ key: { account_id: 1, created_at: -1 }, name: 'account_created' }],
  customers: [
    {
      key: { account_id: 1, external_id: 1 },
      name: CUSTOMER_INDEX.externalId,
      unique: true,
      partialFilterExpression: { external_id: ANY_STRING },
    },
    {
      key: { account_id: 1, email_lower: 1 },
      name: CUSTOMER_INDEX.email,
      unique: true,
      partialFilterExpression: { email_lower: ANY_STRING },
    },
    { key: { account_id: 1, phone: 1 }, name: CUSTOMER_INDEX.phone, unique: true, partialFilterExpression: { phone: ANY_STRING } },
  ],
  links: [
    { key: { account_id: 1, channel_id: 1, customer_id: 1 }, name: 'account_channel_customer', unique: true },
    { key: { token: 1 }, name: 'token', unique: true },
    { key: { account_id: 1, customer_id: 1, node_id: 1 }, name: 'account_customer_node' },
    // Not partial (see above): `$in` on its last field, a channel's links by the phones texted.
    { key: { account_id: 1, channel_id: 1, phone: 1 }, name: 'account_channel_phone' },
    // The retention sweep: links expired longer than the grace.
    { key: { expires_at: 1 }, name: 'expires_at' },
  ],
  responses: [
    { key: { link_id: 1, activation: 1 }, name: 'link_activation', unique: true },
    // The retention sweep's default pass (adapters/mongo/retention.sweep.ts); an account's uses account_newest.
    { key: { sort_key: 1 }, name: 'sort_key' },
    { key: { account_id: 1, flow_id: 1, sort_key: -1 }, name: 'account_flow_newest' },
    { key: { account_id: 1, sort_key: -1 }, name: 'account_newest' },
    // The responses API's filters (response-filters.ts): a channel implies its flow, so no query names both.
    { key: { account_id: 1, channel_id: 1, sort_key: -1 }, name: 'account_channel_newest' },
    { key: { account_id: 1, customer_id: 1, sort_key: -1 }, name: 'account_customer_newest' },
    // An SMS sharing's answers (responses before links kept a send context have no sharing_id).
    { key: { account_id: 1, sharing_id: 1, sort_key: -1 }, name: 'account_sharing_newest' },
    // Not partial: SecantusDB would not use it for a date range (see above); absent values sort first.
    { key: { event_pending_since: 1 }, name: 'event_pending_since' },
  ],
};

/** Indexes of earlier versions, dropped at start-up: the `$exists` partial filters (see above). */
export const retiredSurveyIndexes = {
  customers: ['account_external_id', 'account_email', 'account_phone'],
  responses: ['event_pending'],
};
