import { Type } from '@fastify/type-provider-typebox';
import { PageToken, Uuid } from '../../http/common.schemas.js';

// The lists of campaigns and sharings (docs/api.md "Lists of campaigns and sharings").

const count = (description: string) => Type.Integer({ minimum: 0, description });
const created_at = Type.String({ format: 'date-time', examples: ['2026-11-22T09:30:00.123+00:00'] });
const dateOrNull = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

// created_after / created_before as messaging reads them (intake/domain/sharing-list.use-cases.ts
// parseInstant); it also checks the calendar and that the range is not empty.
const INSTANT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2}))?$';
const Instant = (description: string) =>
  Type.String({ maxLength: 40, pattern: INSTANT, description, examples: ['2026-11-22', '2026-11-22T09:30:00+03:00'] });

const page = {
  // A string: the API's validator does not coerce types, and a query string only has text.
  page_size: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]?|1[0-9]{2}|200)$', description: '1-200, default 50.' })),
  page_token: Type.Optional(PageToken()),
};

export const CampaignPageQuery = Type.Object(page, { additionalProperties: false });

const sharingFilters = {
  status: Type.Optional(
    Type.String({
      maxLength: 20,
      description: 'scheduled, in_progress, completed or cancelled (400 naming status otherwise).',
      examples: ['completed'],
    }),
  ),
  created_after: Type.Optional(Instant('Created at or after: an ISO 8601 date (midnight UTC) or date-time with an offset.')),
  created_before: Type.Optional(Instant('Created strictly before; after created_after.')),
  ...page,
};

/** GET /v1/sms_campaigns/{campaign_id}/sms_sharings: the campaign is in the path. */
export const CampaignSharingsQuery = Type.Object(sharingFilters, { additionalProperties: false });

/** GET /v1/sms_sharings and the admin list: optionally one campaign. */
export const SharingsQuery = Type.Object(
  { campaign_id: Type.Optional(Uuid("Only this campaign's sharings (404 when it is not the account's).")), ...sharingFilters },
  { additionalProperties: false },
);

const CampaignSummarySchema = Type.Object(
  { id: Type.String({ format: 'uuid' }), name: Type.String(), flow_id: Type.String(), created_at },
  { $id: 'SmsCampaignSummary' },
);

export const CampaignSummaryPageSchema = Type.Object({
  data: Type.Array(Type.Unsafe({ $ref: 'SmsCampaignSummary#' })),
  next_page_token: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as page_token for the next page; null on the last page.',
  }),
});

/** The admin list: campaigns with every field (SmsCampaign), a page at a time. */
export const CampaignPageSchema = Type.Object({
  data: Type.Array(Type.Unsafe({ $ref: 'SmsCampaign#' })),
  next_page_token: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as page_token for the next page; null on the last page.',
  }),
});

const SharingSummarySchema = Type.Object(
  {
    id: Type.String(),
    campaign_id: Type.String(),
    created_at,
    status: Type.String({
      description:
        'cancelled (a cancel was asked), completed (every first message settled, or no phone accepted), scheduled (first messages due later), in_progress (otherwise).',
    }),
    accepted: Type.Integer(),
    rejected: Type.Integer(),
    duplicate: Type.Integer(),
    scheduled_for: dateOrNull('When its first messages were or are due; null: at once.'),
    cancelled_at: dateOrNull('null unless cancelled.'),
    completed_at: dateOrNull('When every first message was settled (the sharing.completed webhook); null until then.'),
    totals: Type.Object(
      {
        recipients: count('Phones accepted.'),
        sent: count(
          'First messages the provider accepted, those delivered or failed afterwards included (unlike counts.sent of GET /v1/sms_sharings/{id}: still waiting for a report).',
        ),
        delivered: count('First messages a delivery report said delivered.'),
        failed: count('First messages that ended failed, before or by the provider.'),
        opted_out: count('First messages not sent: the phone was on the suppression list.'),
      },
      {
        description:
          'What happened to its recipients (their first message), counted as it happened: about a second behind; zeros until its first count.',
      },
    ),
    funnel: Type.Object(
      {
        clicked: count('Recipients whose short link a person followed at least once.'),
        answered: count('Recipients who answered the survey through their link.'),
      },
      { description: 'As in GET /v1/sms_sharings/{id}, from the same counters as totals.' },
    ),
    segments: count('Every sent message of the sharing, reminders included: the SMS it is billed as so far.'),
  },
  {
    $id: 'SmsSharingSummary',
    description:
      'What the sharing stores, and its counters (totals, funnel, segments), which follow what happened by about a second. Its exact counts by status and its recipients: GET /v1/sms_sharings/{id}.',
  },
);

export const SharingSummaryPageSchema = Type.Object({
  data: Type.Array(Type.Unsafe({ $ref: 'SmsSharingSummary#' })),
  next_page_token: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as page_token for the next page; null on the last page.',
  }),
});

export const smsListSchemas = [CampaignSummarySchema, SharingSummarySchema];
