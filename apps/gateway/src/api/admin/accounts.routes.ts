import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createAccount, createNode, issueToken, requireAccount, revokeToken } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountsDeps } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { NameBody, TokenBody, TokenParams } from './admin.schemas.js';
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
        schema: {
          ...common,
          summary: 'Create an account',
          operationId: 'createAccount',
          description: 'Answers the new account; the name is 1-200 characters, stored trimmed.',
          body: NameBody,
          response: { 201: ref('Account'), ...errorResponses(400, 401) },
        },
      },
      async (req, reply) => reply.status(201).send(accountView(await createAccount(deps, req.body.name))),
    );

    app.get(
      '/accounts/:account_id',
      {
        schema: {
          ...common,
          summary: 'Show an account',
          operationId: 'getAccount',
          description: 'An unknown account answers 404.',
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
          operationId: 'issueToken',
          description:
            '`api` tokens call SMS, files and short links on customer domains; `integration` tokens call active surveys and personal links; both read flows. The secret is in this answer only (only its SHA-256 is stored).',
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
          operationId: 'listTokens',
          description: 'Every token of the account, newest first, revoked ones with `revoked_at`. An unknown account answers 404.',
          params: AccountParams,
          response: { 200: Type.Object({ data: Type.Array(ref('TokenInfo')) }), ...errorResponses(401, 404) },
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
        schema: {
          ...common,
          summary: 'Revoke a token',
          operationId: 'revokeToken',
          description:
            "Answers 204; other gateway replicas refuse the token within 30 s. An unknown token, or another account's, answers 404.",
          params: TokenParams,
          response: { 204: Type.Null(), ...errorResponses(401, 404) },
        },
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
          operationId: 'createNode',
          description:
            'A domain or unit of the account: channels and SMS campaigns name one, active surveys are asked per node and show its name as `UnitName`. The name is 1-200 characters, stored trimmed.',
          params: AccountParams,
          body: NameBody,
          response: { 201: ref('Node'), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => reply.status(201).send(nodeView(await createNode(deps, req.params.account_id, req.body.name))),
    );
  };
