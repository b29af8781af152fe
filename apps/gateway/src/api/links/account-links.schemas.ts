import { type Static, Type } from '@fastify/type-provider-typebox';
import { DomainName, PageToken } from '../../http/common.schemas.js';

const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** One of an account's links (the admin API's link names: `id`, `full_url`, `short_url`). */
export const AccountLinkSchema = Type.Object(
  {
    id: Type.String({ description: 'The short code.' }),
    short_url: Type.String(),
    full_url: Type.String({ description: 'Where the link leads; never changes.' }),
    domain: nullable(Type.String(), "The customer domain of its short URL; null for the service's own."),
    title: nullable(Type.String(), 'null when it has none.'),
    tags: Type.Array(Type.String()),
    expires_at: nullable(Type.String({ format: 'date-time' }), 'From then on a click gets expired_url or the 410 page; null: never.'),
    max_clicks: nullable(Type.Integer(), 'After this many counted clicks likewise; null: no limit.'),
    expired_url: nullable(Type.String(), 'Where an expired or used-up link sends a click; null: the 410 page.'),
    clicks: Type.Integer({ description: 'Counted clicks so far (people only; counting lags by well under a second).' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'AccountLink' },
);

const linkRef = Type.Unsafe<Static<typeof AccountLinkSchema>>({ $ref: 'AccountLink#' });

export const AccountLinkAnswer = linkRef;

export const AccountLinksPageSchema = Type.Object({
  data: Type.Array(linkRef),
  next_page_token: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page.' }),
});

export const LinksQuery = Type.Object(
  {
    domain: Type.Optional(DomainName("Only this customer domain's links; the service's own short domain: the links made without one.")),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Only the links with this tag.' })),
    created_after: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'Made strictly after: an ISO 8601 date (midnight UTC) or date-time with an offset.',
        examples: ['2026-11-22', '2026-11-22T09:30:00+03:00'],
      }),
    ),
    page_size: Type.Optional(Type.String({ pattern: '^(?:[1-9]|[1-9][0-9]|1[0-9]{2}|200)$', description: '1-200, default 50.' })),
    page_token: Type.Optional(PageToken()),
  },
  { additionalProperties: false },
);

export const LinkCodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * PATCH /v1/links/{code}: only what is given changes; null clears. A link's target is not here:
 * `url`, `target` or any other field is refused with 400 naming it (a link already sent keeps
 * the target its recipients were promised).
 */
export const UpdateLinkBody = Type.Object(
  {
    expires_at: Type.Optional(
      Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.Null()], {
        description: 'RFC 3339 with an offset, in the future (400 naming expires_at otherwise); null: never expires.',
      }),
    ),
    max_clicks: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 4_294_967_295 }), Type.Null()], { description: 'At least 1; null: no limit.' }),
    ),
    expired_url: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()], { description: 'null: the 410 page.' }),
    ),
    title: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, description: 'Replaces the tags; [] clears them.' }),
    ),
  },
  { additionalProperties: false },
);
