import { Type } from '@fastify/type-provider-typebox';
import { NON_BLANK, PageToken } from '../../http/common.schemas.js';

const DateTime = Type.String({ format: 'date-time', examples: ['2026-11-22T09:30:00.123+00:00'] });

const AccountRole = Type.Union([Type.Literal('owner'), Type.Literal('member'), Type.Literal('viewer')], {
  description: 'owner: users, tokens, webhooks; member: campaigns, sharings, uploads, opt-outs; viewer: read only.',
});

const email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: '^[^\\s@]+@[^\\s@]+$',
  description: 'Unique in the deployment, any case.',
  examples: ['ada@example.com'],
});
const name = Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'Not only whitespace; stored trimmed.' });
const password = Type.String({
  minLength: 12,
  maxLength: 256,
  description: '12-256 characters, not the e-mail address. Left out: the answer has an invite_url to set one.',
});

export const NewUserBody = Type.Object(
  { email, name, role: AccountRole, password: Type.Optional(password) },
  { additionalProperties: false, examples: [{ email: 'ada@example.com', name: 'Ada Lovelace', role: 'member' }] },
);

export const NewOperatorBody = Type.Object(
  { email, name, password: Type.Optional(password) },
  { additionalProperties: false, examples: [{ email: 'ops@example.com', name: 'Operations' }] },
);

export const UserPatchBody = Type.Object(
  { name: Type.Optional(name), role: Type.Optional(AccountRole) },
  { additionalProperties: false, minProperties: 1, examples: [{ role: 'viewer' }] },
);

export const UserParams = Type.Object({
  account_id: Type.String({ minLength: 1, maxLength: 100 }),
  user_id: Type.String({ minLength: 1, maxLength: 100 }),
});

export const UsersPageQuery = Type.Object({
  // A string: the API's validator does not coerce types, and a query string only has text.
  page_size: Type.Optional(Type.String({ pattern: '^(?:[1-9]|[1-9][0-9]|1[0-9]{2}|200)$', description: '1-200, default 50.' })),
  page_token: Type.Optional(PageToken()),
});

const userFields = {
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.String({ description: 'owner, member or viewer; operator for an operator.' }),
  created_at: DateTime,
};

export const UserSchema = Type.Object(userFields, { $id: 'User' });

export const CreatedUserSchema = Type.Object(
  {
    ...userFields,
    invite_url: Type.Union([Type.String(), Type.Null()], {
      description: 'For a user created without a password: a single-use link to set one, valid 7 days, shown only here. null otherwise.',
    }),
  },
  { $id: 'CreatedUser' },
);

export const UsersPageSchema = Type.Object({
  data: Type.Array(Type.Unsafe({ $ref: 'User#' })),
  next_page_token: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page.' }),
});
