import { Type } from '@fastify/type-provider-typebox';
import { Id, NON_BLANK, PageToken, Uuid } from '../../http/common.schemas.js';
import { AnswersSchema, ResponseContextProperties } from '../responses/responses.schemas.js';

const created_at = Type.String({ format: 'date-time', examples: ['2026-11-22T09:30:00.123+00:00'] });
const Attributes = (description: string) =>
  Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 1000 }), { maxProperties: 100, description });

const identifiers = {
  phone_number: Type.Optional(
    Type.String({ maxLength: 40, description: "MSISDN; without a country code the deployment's default region applies." }),
  ),
  email: Type.Optional(Type.String({ maxLength: 254, description: 'Compared case-insensitively.' })),
  external_id: Type.Optional(Type.String({ maxLength: 200, description: "The account's unique customer id." })),
};

// Active survey query (docs/api.md "Active surveys").

export const NodeParams = Type.Object({ node_id: Id("A node (domain/unit) of the caller's account.") });

export const ActiveSurveysBody = Type.Object(
  {
    customer: Type.Optional(
      Type.Object(
        {
          ...identifiers,
          schema: Type.Optional(
            Type.Object({ TCKN: Type.Optional(Type.String({ maxLength: 64, description: "When given, must match the customer's." })) }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    response_channel_id: Type.Optional(
      Type.String({ maxLength: 100, description: 'A channel id (UUID): only the surveys of that channel are listed.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ customer: { phone_number: '905321234567', email: 'ada@example.com', schema: { TCKN: '12345678901' } } }],
  },
);

export const ActiveSurveyListSchema = Type.Object(
  {
    count: Type.Integer(),
    surveys: Type.Array(
      Type.Object({
        Link: Type.String(),
        SurveyName: Type.String(),
        LastActivationDate: Type.String({
          description: "dd.MM.yyyy HH:mm:ss (24-hour) in the deployment's display time zone.",
          examples: ['22.11.2026 12:30:00'],
        }),
        UnitName: Type.String({ description: "The node's name." }),
      }),
    ),
  },
  {
    $id: 'ActiveSurveyList',
    examples: [
      {
        count: 1,
        surveys: [
          {
            Link: 'https://feedback.example.com/s/3q2-7wYp…',
            SurveyName: 'Store visit',
            LastActivationDate: '22.11.2026 12:30:00',
            UnitName: 'Kadıköy store',
          },
        ],
      },
    ],
  },
);

// Personal links.

export const LinkChannelParams = Type.Object({ channel_id: Id("A channel of the caller's account.") });

export const PersonalLinkBody = Type.Object(
  {
    customer: Type.Object(
      {
        ...identifiers,
        name: Type.Optional(Type.String({ maxLength: 200 })),
        schema: Type.Optional(Attributes('Schema attributes, e.g. TCKN.')),
      },
      { additionalProperties: false },
    ),
    built_in_responses: Type.Optional(Attributes('Stored with the link and, once answered, with the answers.')),
    short_link: Type.Optional(
      Type.Boolean({ default: false, description: "Also shorten the link (the account's default customer domain when it has one)." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        customer: { external_id: 'C-1001', email: 'ada@example.com', name: 'Ada' },
        built_in_responses: { customerDetailInfo1: 'order 42' },
        short_link: true,
      },
    ],
  },
);

export const PersonalLinkSchema = Type.Object(
  {
    customer_id: Type.String(),
    link: Type.String({ description: 'The personal survey page, {base_url}/s/<token>.' }),
    short_link: Type.Union([Type.String(), Type.Null()], { description: 'null unless short_link was asked for.' }),
    activated_at: created_at,
    expires_at: created_at,
  },
  { $id: 'PersonalLink' },
);

// Channels (admin).

export const ChannelBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'Not only whitespace; stored trimmed.' }),
    node_id: Id('A node of the account.'),
    flow_id: Uuid('A flow of the account.'),
    link_ttl_days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 365, description: 'How long a personal link stays open after each activation; default 7.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Web shop',
        node_id: '0b7e3c52-5f8e-4d4a-9a57-1c2f6e9d8a41',
        flow_id: '8d0f4b6e-2a1c-4e7b-b3f5-9c6d2e1a7f30',
        link_ttl_days: 7,
      },
    ],
  },
);

export const ChannelSchema = Type.Object(
  { id: Type.String(), name: Type.String(), node_id: Type.String(), flow_id: Type.String(), link_ttl_days: Type.Integer(), created_at },
  { $id: 'Channel' },
);

// Responses (admin).

export const ResponsesQuery = Type.Object(
  {
    flow_id: Type.Optional(Id('Only the answers of this flow.')),
    // The filters of GET /v1/responses (docs/api.md "Responses"); the survey service checks them.
    channel_id: Type.Optional(Id('Only the answers that came through this channel or SMS campaign.')),
    campaign_id: Type.Optional(Id('Only the answers to this SMS campaign.')),
    sharing_id: Type.Optional(Id("Only the answers to this SMS sharing's links.")),
    customer_external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Only this customer's answers." })),
    since: Type.Optional(Type.String({ maxLength: 40, description: 'Answered at or after (ISO 8601 date, or date-time with an offset).' })),
    until: Type.Optional(Type.String({ maxLength: 40, description: 'Answered strictly before.' })),
    page_size: Type.Optional(Type.String({ pattern: '^(?:0?[0-9]{1,2}|1[0-9]{2}|200)$', description: '1-200, default 50 (also for 0).' })),
    page_token: Type.Optional(PageToken()),
  },
  { additionalProperties: false },
);

export const ResponseListSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      flow_id: Type.String(),
      channel_id: Type.String(),
      node_id: Type.String(),
      customer_id: Type.String(),
      link_id: Type.String(),
      answers: AnswersSchema,
      built_in_responses: Type.Record(Type.String(), Type.String()),
      answered_at: created_at,
      ...ResponseContextProperties,
    }),
  ),
  next_page_token: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page.' }),
});
