import { Type } from '@fastify/type-provider-typebox';

/** Phones one request may put on the list (messaging enforces the same). */
export const MAX_OPT_OUTS_PER_REQUEST = 1_000;

export const OptOutsBody = Type.Object(
  {
    phone_numbers: Type.Array(Type.Union([Type.String({ maxLength: 64 }), Type.Number()]), {
      minItems: 1,
      maxItems: MAX_OPT_OUTS_PER_REQUEST,
      description:
        'Phones in any usual notation, normalized as a sharing normalizes them. All or nothing: one invalid phone answers 400 naming each invalid one (`phone_numbers.<as written>`), and none is added.',
    }),
  },
  { additionalProperties: false, examples: [{ phone_numbers: ['+905321234567', '0532 123 45 68'] }] },
);

export const OptOutsAddedSchema = Type.Object(
  {
    added: Type.Integer({ description: 'Phones newly on the list.' }),
    already: Type.Integer({ description: 'Phones that were on it already (a phone written twice counts once).' }),
  },
  { examples: [{ added: 1, already: 1 }] },
);

export const OptOutsPageSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      phone: Type.String({ description: 'Normalized: E.164 digits without "+".' }),
      source: Type.String({ description: 'api, keyword (the recipient answered an opt-out keyword such as STOP), survey_page' }),
      created_at: Type.String({ format: 'date-time', examples: ['2026-11-22T09:30:00.123+00:00'] }),
    }),
  ),
  next_page_token: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page.' }),
});

export const OptOutParams = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 64, description: 'The phone in any notation (E.164 recommended: +905321234567).' }),
});
