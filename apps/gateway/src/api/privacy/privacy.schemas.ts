import { Type } from '@fastify/type-provider-typebox';
import { Id } from '../../http/common.schemas.js';

/** At least one (the survey service answers 400 naming all three otherwise); normalized as the SMS and survey routes do. */
export const DataErasureBody = Type.Object(
  {
    phone_number: Type.Optional(
      Type.String({ maxLength: 64, description: 'Any common notation (+90 532 …, 0532 …); E.164 once normalized.' }),
    ),
    email: Type.Optional(Type.String({ maxLength: 254, description: 'Compared without case.' })),
    external_id: Type.Optional(Type.String({ maxLength: 200, description: 'The customer id of your CRM.' })),
  },
  { additionalProperties: false },
);

export const DataErasureParams = Type.Object({ data_erasure_id: Id('An erasure request of the account (a UUID).') });

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const DataErasureSchema = Type.Object(
  {
    id: Type.String({ description: 'The request id (a UUID).' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('completed')], {
      description: 'completed once every service holding personal data has erased its part.',
    }),
    requested_at: Type.String({ description: 'ISO 8601 with offset and milliseconds.' }),
    completed_at: Type.Union([Type.String(), Type.Null()], { description: 'null while pending.' }),
    counts: Type.Object({
      customers: count('Customer records deleted.'),
      messages: count('SMS messages to the person deleted (with what the SMS provider was handed).'),
      responses: count('Survey responses deleted.'),
      links: count('Short links to the person’s survey links deleted.'),
      webhook_deliveries: count('Webhook delivery log entries about the person deleted.'),
      opt_outs_kept: count('Opt-outs kept as a keyed hash, so the phone stays suppressed.'),
    }),
  },
  {
    $id: 'DataErasure',
    examples: [
      {
        id: '0f8c2b1e-6a53-4d7e-9b0e-3c1d2e4f5a6b',
        status: 'completed',
        requested_at: '2026-11-28T05:00:00.000+00:00',
        completed_at: '2026-11-28T05:00:01.250+00:00',
        counts: { customers: 1, messages: 2, responses: 1, links: 1, webhook_deliveries: 3, opt_outs_kept: 1 },
      },
    ],
  },
);

export const DataErasureRef = Type.Unsafe({ $ref: 'DataErasure#' });
