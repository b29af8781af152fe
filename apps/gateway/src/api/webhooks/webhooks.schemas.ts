import { Type } from '@fastify/type-provider-typebox';
import { PageToken } from '../../http/common.schemas.js';

/** Event types an endpoint may subscribe to (the webhooks service checks the same list). */
export const WEBHOOK_EVENT_TYPES = [
  'survey.answered',
  'sms.delivered',
  'sms.failed',
  'sms.opted_out',
  'sharing.completed',
  'file.expired',
  'file.processed',
];

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Where events are POSTed: an https URL (plain http only where the deployment allows it). Loopback, private, link-local and metadata addresses are refused unless the operator allows their range; the address is checked again at each send.',
  examples: ['https://crm.example.com/hooks/feedback'],
});
const Events = Type.Array(Type.String({ enum: WEBHOOK_EVENT_TYPES }), {
  minItems: 1,
  maxItems: 20,
  description: 'The event types to receive (docs/api.md "Webhooks").',
});
const Description = Type.String({ maxLength: 500, description: 'For people; not sent anywhere.' });

export const CreateEndpointBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description) },
  {
    additionalProperties: false,
    examples: [{ url: 'https://crm.example.com/hooks/feedback', events: ['survey.answered'], description: 'CRM' }],
  },
);

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    enabled: Type.Optional(Type.Boolean()),
    description: Type.Optional(Description),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ enabled: true }] },
);

export const EndpointParams = Type.Object({ endpoint_id: Type.String({ minLength: 1, maxLength: 100 }) });
export const DeliveryParams = Type.Object({
  endpoint_id: Type.String({ minLength: 1, maxLength: 100 }),
  delivery_id: Type.String({ minLength: 1, maxLength: 100 }),
});

export const PageQuery = Type.Object({
  // A string: the API's validator does not coerce types, and a query string only has text.
  page_size: Type.Optional(Type.String({ pattern: '^(?:[1-9]|[1-9][0-9]|1[0-9]{2}|200)$', description: '1-200, default 50.' })),
  page_token: Type.Optional(PageToken()),
});

const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', examples: ['2026-11-22T09:30:00.123+00:00'], ...(description ? { description } : {}) });
const NullableDate = (description: string) => Type.Union([DateTime(), Type.Null()], { description });

export const EndpointSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Type.String(),
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the service disabled it (410 Gone, failing for a day); null otherwise.',
    }),
    previous_secret_expires_at: NullableDate('Until then the previous secret signs beside the current one (after a rotation).'),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'WebhookEndpoint' },
);

const endpointRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'WebhookEndpoint#' });

export const EndpointWithSecretSchema = Type.Object({
  endpoint: endpointRef,
  secret: Type.String({
    description: 'The signing secret (`whsec_` + base64), shown only here: keep it.',
    examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  }),
});

export const EndpointAnswerSchema = Type.Object({ endpoint: endpointRef });

export const EndpointsPageSchema = Type.Object({
  data: Type.Array(endpointRef),
  next_page_token: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page.' }),
});

export const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    webhook_id: Type.String({ description: 'The webhook-id header, the same on every attempt: receivers drop repeats by it.' }),
    event_type: Type.String(),
    event_id: Type.String(),
    status: Type.String({ enum: ['pending', 'succeeded', 'failed'] }),
    next_attempt_at: NullableDate('When the next attempt is due; null when none is.'),
    created_at: DateTime(),
    note: Type.Union([Type.String(), Type.Null()], {
      description: 'What the service did beside the attempts (the endpoint disabled, say).',
    }),
    attempts: Type.Array(
      Type.Object({
        at: DateTime(),
        status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when no answer came." }),
        error: Type.Union([Type.String(), Type.Null()], {
          description: 'Why no answer came (refused address, timeout, connection error).',
        }),
        latency_ms: Type.Integer(),
        response_body: Type.String({ description: "The first 1 KiB of the receiver's answer." }),
      }),
    ),
  },
  { $id: 'WebhookDelivery' },
);

const deliveryRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'WebhookDelivery#' });
export const DeliveryAnswerSchema = Type.Object({ delivery: deliveryRef });
export const DeliveriesPageSchema = Type.Object({
  data: Type.Array(deliveryRef),
  next_page_token: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page.' }),
});

export const webhooksSchemas = [EndpointSchema, DeliverySchema];
