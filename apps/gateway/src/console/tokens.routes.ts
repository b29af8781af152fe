import { Type } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenKind } from '../accounts/domain/account.js';
import { issueToken, revokeToken } from '../accounts/domain/accounts.use-cases.js';
import type { AdminContext } from './console.routes.js';
import { pageContext, scoped, sendHtml } from './console-page.js';
import { requireCsrf, requireSession } from './console-session.js';
import { chooseAccount, fieldErrorsOf, formField, managedScope } from './manage-scope.js';
import { tokensPage } from './tokens.views.js';
import type { Scope } from './users.views.js';

const Query = Type.Object({
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  revoked: Type.Optional(Type.Literal('1')),
  lang: Type.Optional(Type.String()),
});
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** An account's API tokens for its owners (and operators on a chosen account): the admin API's own use cases. */
export const tokensRoutes =
  (ctx: AdminContext): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));

    const scopeOf = (req: FastifyRequest, requested: string | undefined) => managedScope(ctx.accounts, req, requested);
    const show = async (
      req: FastifyRequest,
      reply: FastifyReply,
      s: Scope,
      status: number,
      extra: Partial<Parameters<typeof tokensPage>[2]>,
    ) =>
      sendHtml(
        reply,
        status,
        tokensPage(pageContext(req, s.viewer), s, {
          // An account has a handful of tokens (the admin API lists them whole too).
          tokens: await ctx.accountsAdmin.tokens.listByAccount(s.accountId),
          timeZone: ctx.displayTimeZone,
          ...extra,
        }),
      );

    app.get('/console/tokens', { schema: { hide: true, querystring: Query } }, async (req, reply) => {
      const query = req.query as { account?: string; revoked?: string };
      const s = await scopeOf(req, query.account);
      if (!s) return chooseAccount(reply);
      return show(req, reply, s, 200, { notice: query.revoked ? pageContext(req).words.tk_revokedNotice : undefined });
    });

    app.post('/console/tokens', { schema: { hide: true }, preHandler: requireCsrf(ctx.publicOrigin) }, async (req, reply) => {
      const s = await scopeOf(req, formField(req.body, 'account'));
      if (!s) return chooseAccount(reply);
      const values = { name: formField(req.body, 'name'), kind: formField(req.body, 'kind') };
      try {
        const { secret } = await issueToken(ctx.accountsAdmin, s.accountId, values.kind as TokenKind, values.name);
        // The secret is in this answer only: no redirect that would lose it.
        return await show(req, reply, s, 201, { secret });
      } catch (err) {
        const errors = fieldErrorsOf(err);
        if (!errors) throw err;
        return show(req, reply, s, 400, { form: { values, errors } });
      }
    });

    app.post(
      '/console/tokens/:id/revoke',
      { schema: { hide: true, params: Params }, preHandler: requireCsrf(ctx.publicOrigin) },
      async (req, reply) => {
        const s = await scopeOf(req, formField(req.body, 'account'));
        if (!s) return chooseAccount(reply);
        // Another account's token: 404 (revokeToken checks the account).
        await revokeToken(ctx.accountsAdmin, s.accountId, (req.params as { id: string }).id);
        return reply.redirect(scoped('/console/tokens', s.viewer, s.accountId, { revoked: '1' }), 303);
      },
    );
  };
