import { Type } from '@fastify/type-provider-typebox';
import { DomainName, NON_BLANK } from '../../http/common.schemas.js';

const created_at = Type.String({ format: 'date-time', examples: ['2026-11-22T09:30:00.123+00:00'] });

/** A name: 1-200 characters, not only whitespace (the service trims it). */
const name = () => Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'Not only whitespace; stored trimmed.' });

export const NameBody = Type.Object({ name: name() }, { additionalProperties: false });

export const AccountSchema = Type.Object({ id: Type.String(), name: Type.String(), created_at }, { $id: 'Account' });
export const NodeSchema = Type.Object({ id: Type.String(), name: Type.String(), created_at }, { $id: 'Node' });

export const TokenBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('api'), Type.Literal('integration')], {
      description: 'api: `Token token=` for SMS and files; integration: `Bearer` for active surveys. Both read flows.',
    }),
    name: name(),
  },
  { additionalProperties: false },
);

const tokenFields = {
  id: Type.String(),
  kind: Type.String(),
  name: Type.String(),
  created_at,
};

export const IssuedTokenSchema = Type.Object(
  { ...tokenFields, token: Type.String({ description: 'The secret, shown only in this response.' }) },
  { $id: 'IssuedToken' },
);

export const TokenInfoSchema = Type.Object(
  { ...tokenFields, revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) },
  { $id: 'TokenInfo' },
);

export const TokenParams = Type.Object({
  account_id: Type.String({ minLength: 1, maxLength: 100 }),
  token_id: Type.String({ minLength: 1, maxLength: 100 }),
});

// Short links and customer domains (the shortener's admin side).

export const LinkStatsSchema = Type.Object(
  {
    id: Type.String(),
    full_url: Type.String(),
    short_url: Type.String(),
    account_id: Type.Union([Type.String(), Type.Null()]),
    domain: Type.Union([Type.String(), Type.Null()]),
    created_at,
    clicks: Type.Integer({ description: 'Redirects followed so far, each counted once (lags by well under a second).' }),
    title: Type.Union([Type.String(), Type.Null()]),
    tags: Type.Array(Type.String()),
    expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'From then on a tap gets expired_url or a 410 page.',
    }),
    max_clicks: Type.Union([Type.Integer(), Type.Null()], { description: 'After this many counted clicks likewise.' }),
    expired_url: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'ShortLinkStats' },
);

export const DomainSchema = Type.Object(
  {
    domain: Type.String({ examples: ['go.example.com'] }),
    default: Type.Boolean({ description: "The account's oldest domain: links made for the account (its SMS) use it." }),
    created_at,
  },
  { $id: 'LinkDomain' },
);

export const DomainBody = Type.Object(
  { domain: DomainName('A host name pointed at the link listener (https, port 443).') },
  { additionalProperties: false, examples: [{ domain: 'go.example.com' }] },
);

export const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
export const DomainParams = Type.Object({
  account_id: Type.String({ minLength: 1, maxLength: 100 }),
  // The router refuses a path segment over 200 characters (414) before this schema is read.
  domain: { ...DomainName('A domain of the account.'), maxLength: 200 },
});
