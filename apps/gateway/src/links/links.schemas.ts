import { type TOptional, type TSchema, Type } from '@fastify/type-provider-typebox';
import { DomainName } from '../http/common.schemas.js';

const example = {
  id: 'aZ3kP9q',
  fullUrl: 'https://survey.example.com/s/7Hq2?lang=tr',
  shortUrl: 'https://sho.rt/aZ3kP9q',
  createdAt: '2026-11-22T09:30:00.123Z',
};

/** The shortener's default MAX_URL_LENGTH; the gateway's MAX_URL_LENGTH must equal the shortener's. */
const DEFAULT_MAX_URL_LENGTH = 2048;

/** A link's options (docs/api.md "An account's links"): POST /shorten sets them, PATCH /v1/links/{code} changes them. */
export const linkOptionFields = (maxUrlLength = DEFAULT_MAX_URL_LENGTH) => ({
  title: Type.String({ maxLength: 200, description: 'A name for the link, for its account (at most 200 characters).' }),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
    maxItems: 20,
    description: 'Up to 20 tags of 1-50 characters; GET /v1/links?tag= lists the links with one.',
  }),
  expires_at: Type.String({
    format: 'date-time',
    maxLength: 40,
    description:
      'RFC 3339 date-time with an offset. From then on a click gets `expired_url` (302) or a 410 page. Already past: 400 naming expires_at.',
  }),
  max_clicks: Type.Integer({
    minimum: 1,
    maximum: 4_294_967_295,
    description:
      "After this many counted clicks (a person's first tap in a minute: not bots, link previews, HEAD or repeats) a click gets `expired_url` (302) or a 410 page.",
  }),
  expired_url: Type.String({
    minLength: 1,
    maxLength: maxUrlLength,
    description: 'Where a click goes once the link expired or used up its clicks (the rules of `url`); without it, a 410 page.',
  }),
});

/** The body of POST /shorten; its length limits are the ones enforced (the other URL rules are the shortener's). */
export const shortenBody = (maxUrlLength = DEFAULT_MAX_URL_LENGTH) =>
  Type.Object(
    {
      url: Type.String({
        minLength: 1,
        maxLength: maxUrlLength,
        description:
          'The URL to shorten, kept exactly as given: an absolute http or https URL with a host, without spaces, control characters, a backslash or a user name, not pointing at a short link domain (400 naming url otherwise).',
      }),
      domain: Type.Optional(
        DomainName(
          "A customer domain of the caller's account to use instead of the service's own; needs that account's API token (401 without, 403 for another account's domain, 400 naming domain when nobody configured it).",
        ),
      ),
      ...optional(linkOptionFields(maxUrlLength)),
    },
    { additionalProperties: false, examples: [{ url: example.fullUrl }] },
  );

/** Each field optional: given, it is set; a PATCH of the same fields changes them. */
function optional<T extends Record<string, TSchema>>(fields: T): { [K in keyof T]: TOptional<T[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: TOptional<T[K]> };
}

/** The short link object, exactly (docs/api.md "Routes"), and the options the request set, each only when set. */
export const ShortenedLinkSchema = Type.Object(
  {
    id: Type.String({ description: 'generated short code' }),
    fullUrl: Type.String({ description: 'original URL' }),
    shortUrl: Type.String({ description: 'generated short URL' }),
    createdAt: Type.String({ format: 'date-time', description: 'creation time, ISO 8601 in UTC with milliseconds' }),
    title: Type.Optional(Type.String()),
    tags: Type.Optional(Type.Array(Type.String())),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601 in UTC with milliseconds' })),
    max_clicks: Type.Optional(Type.Integer()),
    expired_url: Type.Optional(Type.String()),
  },
  { $id: 'ShortenedLink', examples: [example] },
);
