import { Type } from '@fastify/type-provider-typebox';
import { Id, PageToken, Uuid } from '../../http/common.schemas.js';

// since/until as the survey service reads them (apps/survey response-filters.ts); it also checks
// the calendar (no 2026-02-30) and that since is not after until.
const INSTANT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2}))?$';
const Instant = (description: string) =>
  Type.String({ maxLength: 40, pattern: INSTANT, description, examples: ['2026-11-22', '2026-11-22T09:30:00+03:00'] });

const filters = {
  flow_id: Type.Optional(Uuid("Only the responses of this flow of the account's (404 otherwise).")),
  channel_id: Type.Optional(Uuid("Only the responses that came through this channel or SMS campaign of the account's (404 otherwise).")),
  campaign_id: Type.Optional(
    Uuid("Only the responses to this SMS campaign of the account's (404 otherwise); with channel_id, both must name the same."),
  ),
  sharing_id: Type.Optional(Uuid('Only the answers to the links of this SMS sharing (none when no answer came through it).')),
  customer_external_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "Only this customer's responses (none when no customer has it)." }),
  ),
  since: Type.Optional(Instant('Answered at or after: an ISO 8601 date (midnight UTC) or date-time with an offset.')),
  until: Type.Optional(Instant('Answered strictly before; not before `since`.')),
};

export const ResponseFilterQuery = Type.Object(filters, { additionalProperties: false });

export const ResponsePageQuery = Type.Object(
  {
    ...filters,
    page_size: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]?|1[0-9]{2}|200)$', description: '1-200, default 50.' })),
    page_token: Type.Optional(PageToken()),
  },
  { additionalProperties: false },
);

export const NpsQuery = Type.Object(
  {
    channel_id: filters.channel_id,
    campaign_id: filters.campaign_id,
    sharing_id: filters.sharing_id,
    since: filters.since,
    until: filters.until,
    interval: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('week')], {
        description: "Each question's score per day or week (weeks start on Monday) too: `series`.",
      }),
    ),
    time_zone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "The IANA time zone of the periods' bounds, daylight saving time included (default UTC).",
        examples: ['Europe/Istanbul'],
      }),
    ),
    group_by: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "A custom attribute of the SMS sharings (a store, a region): each question's score per value of it too: `groups`.",
        examples: ['store'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const ResponseParams = Type.Object({ response_id: Id('A response of the caller’s account (a UUID).') });
export const NpsParams = Type.Object({ flow_id: Id('A flow of the caller’s account.') });

const nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** A response's answers keyed by question: the one shape of the REST API, the admin API and survey.answered. */
export const AnswersSchema = Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Array(Type.String())]), {
  description:
    'Keyed by question key as the flow details name it: choice questions give the chosen option keys (an array, one for single choice and dropdown), scales and numbers a number (yes_no: 1 yes, 0 no), text, e-mail, phone and date questions their text. An unanswered optional question is absent.',
});

/** What sent the link a response came through (the send context). */
export const ResponseContextProperties = {
  campaign_id: nullable('The SMS campaign whose message carried the link; null when no SMS sharing sent it.'),
  sharing_id: nullable('The SMS sharing that sent the link; null otherwise.'),
  message_id: nullable('The SMS that carried the link, as the sms.* webhook events name it; null otherwise.'),
  custom_attributes: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
    description:
      "The recipient's custom attributes as the sharing gave them (an order id, a store), without the deployment's sensitive ones (the TCKN); {} for a link sent otherwise, null on responses stored before they were kept.",
  }),
};

const EXAMPLE = {
  id: '5b0c7e1a-3f2d-4c8b-9a61-2e7d4f0b9c13',
  flow_id: '8d0f4b6e-2a1c-4e7b-b3f5-9c6d2e1a7f30',
  channel_id: '0b7e3c52-5f8e-4d4a-9a57-1c2f6e9d8a41',
  customer: { external_id: 'C-1001', email: 'ada@example.com', phone: '905321234567' },
  created_at: '2026-11-22T09:30:00.123+00:00',
  answers: { nps: 9, reasons: ['price', 'speed'], comment: 'Quick delivery' },
  built_in_responses: { customerDetailInfo1: 'order 42' },
  campaign_id: '3c9e6d1f-7a2b-4e5c-8d90-1b2c3d4e5f60',
  sharing_id: '6a1f2e3d-4c5b-4a69-8e7f-0d1c2b3a4958',
  message_id: '6a1f2e3d-4c5b-4a69-8e7f-0d1c2b3a4958.905321234567',
  custom_attributes: { order_id: 'A-1001', store: 'Kadikoy' },
};

export const SurveyResponseSchema = Type.Object(
  {
    id: Type.String(),
    flow_id: Type.String(),
    channel_id: Type.String({ description: 'The channel or SMS campaign the link came from.' }),
    customer: Type.Object(
      {
        external_id: nullable("The account's customer id; null when unknown."),
        email: nullable('null when unknown.'),
        phone: nullable('E.164 digits without "+"; null when unknown.'),
      },
      { description: "The customer's identifiers as stored now." },
    ),
    created_at: Type.String({ format: 'date-time', description: 'When the customer answered.', examples: [EXAMPLE.created_at] }),
    answers: AnswersSchema,
    built_in_responses: Type.Record(Type.String(), Type.String(), {
      description: 'What the link was created with (customerDetailInfo1, ...), as the survey page kept it.',
    }),
    ...ResponseContextProperties,
  },
  { $id: 'SurveyResponse', examples: [EXAMPLE] },
);

export const SurveyResponsePageSchema = Type.Object(
  {
    data: Type.Array(Type.Unsafe({ $ref: 'SurveyResponse#' })),
    next_page_token: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as page_token for the next page; null on the last page.',
    }),
  },
  { examples: [{ data: [EXAMPLE], next_page_token: null }] },
);

const tallies = {
  promoters: Type.Integer({ description: 'Answers 9-10.' }),
  passives: Type.Integer({ description: 'Answers 7-8.' }),
  detractors: Type.Integer({ description: 'Answers 0-6.' }),
  total: Type.Integer(),
  score: Type.Union([Type.Integer({ minimum: -100, maximum: 100 }), Type.Null()], {
    description: '% promoters - % detractors, rounded (halves away from zero); null without answers.',
  }),
};

export const NpsSummarySchema = Type.Object(
  {
    flow_id: Type.String(),
    questions: Type.Array(
      Type.Object({
        question_key: Type.String(),
        ...tallies,
        series: Type.Optional(
          Type.Array(
            Type.Object({
              start: Type.String({ description: "The period's first instant, ISO 8601 with the zone's offset." }),
              ...tallies,
            }),
            {
              description: 'With interval: the days or weeks that have answers, oldest first.',
            },
          ),
        ),
        groups: Type.Optional(
          Type.Array(
            Type.Object({
              value: Type.Union([Type.String(), Type.Null()], { description: 'null: responses without the attribute.' }),
              ...tallies,
            }),
            {
              description: 'With group_by: one per value of the attribute, most answers first.',
            },
          ),
        ),
      }),
      { description: "Every nps question of the flow, in the flow's order (none: an empty list)." },
    ),
  },
  {
    examples: [
      {
        flow_id: EXAMPLE.flow_id,
        questions: [{ question_key: 'nps', promoters: 52, passives: 30, detractors: 18, total: 100, score: 34 }],
      },
    ],
  },
);
