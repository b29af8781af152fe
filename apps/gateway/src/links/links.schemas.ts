import { Type } from '@fastify/type-provider-typebox';

const example = {
  id: 'aZ3kP9q',
  fullUrl: 'https://survey.example.com/s/7Hq2?lang=tr',
  shortUrl: 'https://sho.rt/aZ3kP9q',
  createdAt: '2026-11-22T09:30:00.123Z',
};

export const ShortenBody = Type.Object(
  {
    // The precise length limit and URL rules are the shortener's; this only bounds the work.
    url: Type.String({ maxLength: 16 * 1024, description: 'The URL to shorten: http or https, kept exactly as given.' }),
    domain: Type.Optional(
      Type.String({ minLength: 1, maxLength: 253, description: 'A configured customer domain to use instead of the service\'s own.' }),
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
  { examples: [example] },
);
