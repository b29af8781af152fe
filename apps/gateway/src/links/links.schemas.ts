import { Type } from '@fastify/type-provider-typebox';
import { DomainName } from '../http/common.schemas.js';

const example = {
  id: 'aZ3kP9q',
  fullUrl: 'https://survey.example.com/s/7Hq2?lang=tr',
  shortUrl: 'https://sho.rt/aZ3kP9q',
  createdAt: '2026-11-22T09:30:00.123Z',
};

/** The shortener's default MAX_URL_LENGTH; the gateway's MAX_URL_LENGTH must equal the shortener's. */
const DEFAULT_MAX_URL_LENGTH = 2048;

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
    },
    { additionalProperties: false, examples: [{ url: example.fullUrl }] },
  );

/** The short link object, exactly (docs/api.md "Routes"). */
export const ShortenedLinkSchema = Type.Object(
  {
    id: Type.String({ description: 'generated short code' }),
    fullUrl: Type.String({ description: 'original URL' }),
    shortUrl: Type.String({ description: 'generated short URL' }),
    createdAt: Type.String({ format: 'date-time', description: 'creation time, ISO 8601 in UTC with milliseconds' }),
  },
  { $id: 'ShortenedLink', examples: [example] },
);
