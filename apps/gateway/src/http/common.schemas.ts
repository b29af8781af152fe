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

/**
 * Not only whitespace (the services trim): one character that String.prototype.trim keeps. The
 * whitespace is spelled out, so that every JSON Schema dialect (ajv, Python's re) reads it alike.
 */
export const NON_BLANK = '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/** A UUID as the services check it (any case). */
export const Uuid = (description: string) =>
  Type.String({
    minLength: 36,
    maxLength: 36,
    pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
    description,
  });

/**
 * Every list route's page, as the services take it (kit-core paging): 0 is the list's default size,
 * '' the first page. The schemas state each list's size range; the token is the service's to check.
 */
export const pageRequest = (q: { page_size?: string; page_token?: string }) => ({
  pageSize: Number(q.page_size ?? 0),
  pageToken: q.page_token ?? '',
});

/** The characters of a page token (base64url); only a next_page_token the same list answered is valid. */
export const PageToken = () =>
  Type.String({
    maxLength: 500,
    pattern: '^[A-Za-z0-9_-]*$',
    description: 'next_page_token of the previous page, as it was (400 for any other value).',
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
