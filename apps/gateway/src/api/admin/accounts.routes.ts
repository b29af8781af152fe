import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createAccount,
  createNode,
  issueToken,
  requireAccount,
  revokeToken,
  type AccountsDeps,
} from '../../accounts/domain/accounts.use-cases.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { NameBody, TokenBody, TokenInfoSchema, TokenParams } from './admin.schemas.js';
import { accountView, issuedTokenView, nodeView, tokenInfoView } from './admin.views.js';

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });

/** The admin API (docs/api.md "Admin API"): accounts, their tokens and nodes (the gateway's own database). */
export const accountsRoutes =
  (deps: AccountsDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.post(
      '/accounts',
      {
        schema: { ...common, summary: 'Create an account', body: NameBody, response: { 201: ref('Account'), ...errorResponses(400, 401) } },
      },
      async (req, reply) => reply.status(201).send(accountView(await createAccount(deps, req.body.name))),
    );

    app.get(
      '/accounts/:account_id',
      {
        schema: {
          ...common,
          summary: 'Show an account',
          params: AccountParams,
          response: { 200: ref('Account'), ...errorResponses(401, 404) },
        },
      },
      async (req) => accountView(await requireAccount(deps, req.params.account_id)),
    );

    app.post(
      '/accounts/:account_id/tokens',
      {
        schema: {
          ...common,
          summary: 'Issue a token (the secret is shown once)',
          params: AccountParams,
          body: TokenBody,
          response: { 201: ref('IssuedToken'), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        const { token, secret } = await issueToken(deps, req.params.account_id, req.body.kind, req.body.name);
        return reply.status(201).send(issuedTokenView(token, secret));
      },
    );

    app.get(
      '/accounts/:account_id/tokens',
      {
        schema: {
          ...common,
          summary: "List an account's tokens (never their secrets)",
          params: AccountParams,
          response: { 200: Type.Object({ data: Type.Array(TokenInfoSchema) }), ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        return { data: (await deps.tokens.listByAccount(req.params.account_id)).map(tokenInfoView) };
      },
    );

    app.delete(
      '/accounts/:account_id/tokens/:token_id',
      {
        schema: { ...common, summary: 'Revoke a token', params: TokenParams, response: { 204: Type.Null(), ...errorResponses(401, 404) } },
      },
      async (req, reply) => {
        await revokeToken(deps, req.params.account_id, req.params.token_id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/accounts/:account_id/nodes',
      {
        schema: {
          ...common,
          summary: 'Create a node (a domain/unit)',
          params: AccountParams,
          body: NameBody,
          response: { 201: ref('Node'), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => reply.status(201).send(nodeView(await createNode(deps, req.params.account_id, req.body.name))),
    );
  };
