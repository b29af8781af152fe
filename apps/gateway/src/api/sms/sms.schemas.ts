import { Type } from '@fastify/type-provider-typebox';
import { PageToken } from '../../http/common.schemas.js';
import { campaignRuleFields, campaignRuleViewFields } from './campaign-rules.schemas.js';

const created_at = Type.String({ format: 'date-time', examples: ['2026-11-22T09:30:00.123+00:00'] });

const PHONE_EXAMPLE = '+905321234567';

/** kit-core's attribute rule (customer-attributes.ts), which messaging applies at accept time. */
const ATTRIBUTE_RULE =
  'At most 50 per phone; names of 1-64 characters without a dot, a leading $ or a control character; values of at most 1,000 characters (name and external_id 200, email an e-mail address); anything else is 400 naming the attribute.';

const SmsEncodingSchema = Type.Unsafe<string>({
  type: 'string',
  enum: ['gsm7', 'gsm7-tr', 'ucs2'],
  description:
    'gsm7 (160 characters a segment), gsm7-tr (the Turkish single shift table, 155), ucs2 (70); docs/api.md "Cost of a message".',
});

const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** Why a message failed (docs/api.md "SMS sharing"): a delivery report's fields, or our reason as the description. */
const SmsErrorSchema = Type.Union(
  [
    Type.Object({
      status: nullableText("The delivery report's status code (Kannel's DLR type, e.g. 2 or 16); null when no report failed it."),
      code: nullableText("The provider's error code from the report (Kannel: the err: of the SMSC's receipt); null when it gave none."),
      description: nullableText(
        "The provider's description (Kannel: the receipt's stat:, e.g. UNDELIV), or our reason for a refusal before or by the provider.",
      ),
    }),
    Type.Null(),
  ],
  {
    description: 'null unless the message failed (or was refused for now).',
    examples: [{ status: '2', code: '001', description: 'UNDELIV' }],
  },
);

/** Values of one phone's attributes: scalars (messaging stores them as text; null is dropped). */
const PerPhone = (description: string, example: Record<string, string>) =>
  Type.Unsafe<Record<string, Record<string, string | number | boolean | null>>>({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
    description,
    examples: [{ [PHONE_EXAMPLE]: example }],
  });

/**
 * The sharing body (docs/api.md "SMS sharing"); messaging checks the details (phones one by one,
 * attribute names and values by kit-core's attribute rule) and names the field, whoever calls it.
 */
export const sharingBodySchema = (maxPhones: number) =>
  Type.Object(
    {
      phone_numbers: Type.Array(Type.Union([Type.String(), Type.Number()]), {
        minItems: 1,
        maxItems: maxPhones,
        description: `Phones in any usual notation (E.164 recommended). At most 5,000 recommended; above ${maxPhones} the request is refused (400). Invalid phones are rejected one by one with a reason, duplicates counted once.`,
      }),
      custom_attributes: Type.Optional(
        PerPhone(
          'Keyed by the phone as written in phone_numbers: free attributes (used by the message template as {{name}}), external_id, email. ' +
            ATTRIBUTE_RULE,
          {
            name: 'Ayşe',
            external_id: 'CRM-1042',
            email: 'ayse@example.com',
          },
        ),
      ),
      built_in_responses: Type.Optional(
        PerPhone('Keyed by the phone as written in phone_numbers: customerDetailInfo1, customerDetailInfo2.', {
          customerDetailInfo1: 'Gold',
          customerDetailInfo2: 'Istanbul',
        }),
      ),
      send_at: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 40,
          description:
            "When to send: ISO 8601 with an offset from -14:00 to +14:00 or Z (2026-11-27T10:00:00+03:00), at most 30 days ahead; the campaign's send window still applies. Omitted: now. Checked by the messaging service (400 naming send_at).",
          examples: ['2026-11-27T10:00:00+03:00'],
        }),
      ),
    },
    {
      additionalProperties: false,
      examples: [
        {
          phone_numbers: [PHONE_EXAMPLE, '05321234568'],
          custom_attributes: { [PHONE_EXAMPLE]: { name: 'Ayşe', external_id: 'CRM-1042', email: 'ayse@example.com' } },
          built_in_responses: { [PHONE_EXAMPLE]: { customerDetailInfo1: 'Gold', customerDetailInfo2: 'Istanbul' } },
        },
      ],
    },
  );

export const CampaignParams = Type.Object({ campaign_id: Type.String({ format: 'uuid', description: 'The SMS campaign (a UUID).' }) });
export const SharingParams = Type.Object({ sharing_id: Type.String({ minLength: 1, maxLength: 100 }) });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'Optional. The same key with the same body within 24 h replays the first answer (header Idempotent-Replayed: true) instead of sending again.',
    }),
  ),
});

const RejectedPhoneSchema = Type.Object({
  phone: Type.String({ description: 'As written in the request.' }),
  reason: Type.String({
    description:
      'not_a_string, empty, too_long_input, not_a_number, invalid_country_code, too_short, too_long, invalid_length, invalid_number, opted_out (on the account SMS opt-out list)',
  }),
});

const SmsSharingCreatedSchema = Type.Object(
  {
    id: Type.String({ description: 'The sharing; GET /v1/sms_sharings/{id} shows each recipient.' }),
    campaign_id: Type.String(),
    accepted: Type.Integer({ description: 'Phones that will get an SMS (after de-duplication).' }),
    rejected: Type.Integer(),
    duplicate: Type.Integer({ description: 'Entries dropped as repeats of an earlier phone (after normalization).' }),
    rejected_phones: Type.Array(RejectedPhoneSchema),
    scheduled_for: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: "When its first messages are due (send_at, or the send window's next opening); null: they go out now.",
    }),
  },
  {
    $id: 'SmsSharingCreated',
    examples: [
      {
        id: '1d3c…',
        campaign_id: '6f1e…',
        accepted: 2,
        rejected: 1,
        duplicate: 1,
        rejected_phones: [{ phone: '12', reason: 'too_short' }],
        scheduled_for: null,
      },
    ],
  },
);

const SmsSharingSchema = Type.Object(
  {
    id: Type.String(),
    campaign_id: Type.String(),
    created_at,
    scheduled_for: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    cancelled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    accepted: Type.Integer(),
    rejected: Type.Integer(),
    duplicate: Type.Integer(),
    rejected_phones: Type.Array(RejectedPhoneSchema),
    counts: Type.Object(
      {
        scheduled: Type.Integer(),
        queued: Type.Integer(),
        sending: Type.Integer(),
        sent: Type.Integer(),
        delivered: Type.Integer(),
        failed: Type.Integer(),
        opted_out: Type.Integer(),
        cancelled: Type.Integer(),
        other: Type.Integer({ description: 'retryable and unknown.' }),
      },
      { description: 'Recipients by the status of their first message.' },
    ),
    segments: Type.Integer({ description: 'Every message of the sharing, reminders included: the SMS it is billed as so far.' }),
    funnel: Type.Object(
      {
        clicked: Type.Integer({ description: 'Recipients whose short link was followed at least once.' }),
        answered: Type.Integer({ description: "Recipients who answered the survey (their link of the campaign's channel)." }),
      },
      { description: 'What became of the links among the recipients whose message went out.' },
    ),
    recipients: Type.Array(
      Type.Object({
        phone: Type.String({ description: 'Normalized: E.164 digits without "+".' }),
        status: Type.String({
          description:
            'scheduled (waiting for send_at or the send window), queued (not yet taken), sending, sent, retryable, unknown (may have been sent; never re-sent), delivered, failed, opted_out, cancelled',
        }),
        error: SmsErrorSchema,
        updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
        encoding: Type.Union([SmsEncodingSchema, Type.Null()], { description: 'Of its message once rendered; null before.' }),
        segments: Type.Integer({ description: 'The SMS its message is billed as; 0 before it is rendered.' }),
        reminders: Type.Array(
          Type.Object({
            reminder: Type.Integer({ minimum: 1, maximum: 3 }),
            status: Type.String(),
            segments: Type.Integer(),
            updated_at: Type.String({ format: 'date-time' }),
          }),
          { description: 'The reminders that went out to it, in order.' },
        ),
      }),
    ),
  },
  { $id: 'SmsSharing' },
);

/** The campaign preview (docs/api.md "Cost of a message"). */
export const PreviewBody = Type.Object(
  {
    custom_attributes: Type.Optional(
      Type.Unsafe<Record<string, string | number | boolean>>({
        type: 'object',
        additionalProperties: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] },
        maxProperties: 50,
        description: `One recipient's custom attributes, as a sharing gives them ({{name}} in the template). ${ATTRIBUTE_RULE}`,
      }),
    ),
    reminder: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 3,
        description: "0 (default): the campaign's message; 1-3: that reminder's (its own template, else the campaign's).",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ custom_attributes: { name: 'Ayşe' } }] },
);

export const SmsPreviewSchema = Type.Object(
  {
    text: Type.String({ description: 'The message, with a placeholder as long as a real short link.' }),
    encoding: SmsEncodingSchema,
    segments: Type.Integer({ description: 'The SMS it is billed as.' }),
    characters: Type.Integer({ description: 'Unicode code points.' }),
  },
  {
    $id: 'SmsPreview',
    examples: [{ text: 'Merhaba Ayşe, görüşünüz: http://127.0.0.1:8081/xxxxxxx', encoding: 'ucs2', segments: 1, characters: 54 }],
  },
);

// Admin: campaigns and what the outbox provider was handed.

export const CampaignBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    node_id: Type.String({ minLength: 1, maxLength: 100 }),
    flow_id: Type.String({ minLength: 1, maxLength: 100 }),
    message_template: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'Must contain {{link}}; {{name}} etc. come from custom_attributes (missing → empty).',
    }),
    link_ttl_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 365,
        description: "How long a recipient's survey link stays open; default: the survey service's.",
      }),
    ),
    ...campaignRuleFields,
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'After-visit SMS',
        node_id: '0b7e3c52-5f8e-4d4a-9a57-1c2f6e9d8a41',
        flow_id: '8d0f4b6e-2a1c-4e7b-b3f5-9c6d2e1a7f30',
        message_template: 'Hi {{name}}, how was your visit? {{link}}',
      },
    ],
  },
);

const SmsCampaignSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    node_id: Type.String(),
    flow_id: Type.String(),
    message_template: Type.String(),
    created_at,
    ...campaignRuleViewFields,
    warnings: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'On a create or an update: what the template costs more than it seems (UCS-2, more than two segments). Nothing is refused for it.',
      }),
    ),
  },
  { $id: 'SmsCampaign' },
);

/** A list of an account's phones, a page at a time: the admin message list's and the opt-out list's query. */
export const PhonePageQuery = Type.Object({
  phone: Type.Optional(
    Type.String({
      maxLength: 64,
      description: "Any notation, but a number of its country's numbering plan (400 otherwise); omitted lists every phone.",
    }),
  ),
  // A string: the API's validator does not coerce types, and a query string only has text.
  page_size: Type.Optional(Type.String({ pattern: '^(?:[1-9]|[1-9][0-9]|[1-4][0-9]{2}|500)$', description: '1-500, default 50.' })),
  page_token: Type.Optional(PageToken()),
});

export const SmsMessagesPageSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      sharing_id: Type.String(),
      phone: Type.String(),
      text: Type.String(),
      status: Type.String({ description: "Its message record's status: sent, then delivered or failed once the provider reports." }),
      error: SmsErrorSchema,
      created_at,
      encoding: Type.Union([SmsEncodingSchema, Type.Null()], { description: 'null for messages recorded before it was kept.' }),
      segments: Type.Union([Type.Integer(), Type.Null()], { description: 'The SMS it is billed as; null like encoding.' }),
    }),
  ),
  next_page_token: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page.' }),
});

export const smsSchemas = [SmsSharingCreatedSchema, SmsSharingSchema, SmsCampaignSchema, SmsPreviewSchema];
