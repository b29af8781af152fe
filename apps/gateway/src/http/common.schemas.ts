import { Type } from '@fastify/type-provider-typebox';

/** The public error body (docs/errors.md); every error the gateway answers has this shape. */
export const ErrorBodySchema = Type.Object(
  {
    error_message: Type.String(),
    data: Type.Any(),
    code: Type.Integer(),
    errors: Type.Union([Type.Null(), Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' } })]),
  },
  {
    $id: 'ErrorBody',
    description: 'Error body: error_message, data (repeats the message), code (13xxx), errors (field details or null).',
    examples: [{ error_message: 'Wrong authentication token', data: 'Wrong authentication token', code: 13001, errors: null }],
  },
);

const errorRef = Type.Unsafe({ $ref: 'ErrorBody#' });

/** Standard error responses of a route, by status. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, errorRef]));
}

/** Text keyed by language code, e.g. {"en": "How likely...", "tr": "..."}. */
export const LocalizedText = Type.Unsafe<Record<string, string>>({
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Text keyed by language code (e.g. en, tr, pt-BR).',
  examples: [{ en: 'How likely are you to recommend us?', tr: 'Bizi tavsiye etme olasılığınız nedir?' }],
});

export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

/** The account an admin route acts on. */
export const AccountParams = Type.Object({ account_id: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * A customer domain as the shortener accepts it (apps/shortener domain-name.ts): a bare host name of
 * at least two labels, letters, digits and inner hyphens, the last label starting with a letter
 * (no IP addresses); IDNs in their xn-- form.
 */
export const DomainName = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 253,
    pattern: '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?$',
    description,
    examples: ['go.example.com'],
  });
