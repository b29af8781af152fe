import type { FastifyRequest } from 'fastify';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoWithOffset } from '@feedback/kit-core';
import type { CreateFlowRequest, CreateFlowResponse } from '@feedback/proto/feedback/flow/v1/flow';
import type { ApiToken } from '../../domain/account.js';
import {
  createAccount,
  createNode,
  issueToken,
  requireAccount,
  revokeToken,
  type AdminDeps,
} from '../../domain/admin.use-cases.js';
import {
  AccountParams,
  NameBody,
  TokenBody,
  TokenInfoSchema,
  TokenParams,
} from '../schemas/admin.schemas.js';
import { errorResponses } from '../schemas/common.schemas.js';
import { FlowDefinitionSchema } from '../schemas/flow.schemas.js';
import { flowView } from './flows.routes.js';

export interface AdminFlowsPort {
  createFlow(req: CreateFlowRequest): Promise<CreateFlowResponse>;
}

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });
const tokenInfo = (t: ApiToken) => ({
  id: t.id,
  kind: t.kind,
  name: t.name,
  created_at: isoWithOffset(t.createdAt),
  revoked_at: t.revokedAt ? isoWithOffset(t.revokedAt) : null,
});

/** DESIGN section 3's admin API. Every route answers 401 without the admin token. */
export const adminRoutes =
  (deps: AdminDeps & { flows: AdminFlowsPort; adminAuth: (req: FastifyRequest) => Promise<void> }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addHook('onRequest', deps.adminAuth);
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.post(
      '/accounts',
      { schema: { ...common, summary: 'Create an account', body: NameBody, response: { 201: ref('Account'), ...errorResponses(400, 401) } } },
      async (req, reply) => {
        const a = await createAccount(deps, req.body.name);
        return reply.status(201).send({ id: a.id, name: a.name, created_at: isoWithOffset(a.createdAt) });
      },
    );

    app.get(
      '/accounts/:account_id',
      { schema: { ...common, summary: 'Show an account', params: AccountParams, response: { 200: ref('Account'), ...errorResponses(401, 404) } } },
      async (req) => {
        const a = await requireAccount(deps, req.params.account_id);
        return { id: a.id, name: a.name, created_at: isoWithOffset(a.createdAt) };
      },
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
        return reply
          .status(201)
          .send({ id: token.id, kind: token.kind, name: token.name, token: secret, created_at: isoWithOffset(token.createdAt) });
      },
    );

    app.get(
      '/accounts/:account_id/tokens',
      {
        schema: {
          ...common,
          summary: 'List an account\'s tokens (never their secrets)',
          params: AccountParams,
          response: { 200: Type.Object({ data: Type.Array(TokenInfoSchema) }), ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        return { data: (await deps.tokens.listByAccount(req.params.account_id)).map(tokenInfo) };
      },
    );

    app.delete(
      '/accounts/:account_id/tokens/:token_id',
      { schema: { ...common, summary: 'Revoke a token', params: TokenParams, response: { 204: Type.Null(), ...errorResponses(401, 404) } } },
      async (req, reply) => {
        await revokeToken(deps, req.params.account_id, req.params.token_id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/accounts/:account_id/nodes',
      {
        schema: { ...common, summary: 'Create a node (a domain/unit)', params: AccountParams, body: NameBody, response: { 201: ref('Node'), ...errorResponses(400, 401, 404) } },
      },
      async (req, reply) => {
        const n = await createNode(deps, req.params.account_id, req.body.name);
        return reply.status(201).send({ id: n.id, name: n.name, created_at: isoWithOffset(n.createdAt) });
      },
    );

    app.post(
      '/accounts/:account_id/flows',
      {
        schema: {
          ...common,
          summary: 'Create a flow',
          description: 'Styles: single_choice, multiple_choice, dropdown (2+ options); nps, csat, ces, star_rating, emoji_rating, yes_no (options optional); short_text, long_text, email, phone, number, date, statement (no options).',
          params: AccountParams,
          body: FlowDefinitionSchema,
          response: { 201: ref('Flow'), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        const { flow } = await deps.flows.createFlow({
          accountId: req.params.account_id,
          name: req.body.name,
          questions: req.body.questions.map((q) => ({ ...q, options: q.options ?? [] })),
        });
        return reply.status(201).send(flowView(flow));
      },
    );
  };
