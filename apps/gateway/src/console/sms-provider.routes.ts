import { Type } from '@fastify/type-provider-typebox';
import { AppError } from '@feedback/kit-core';
import type { FastifyPluginAsync } from 'fastify';
import { accountScope } from './account-scope.js';
import type { AdminContext } from './console.routes.js';
import { pageContext, sendHtml, viewerOf } from './console-page.js';
import { requireSession } from './console-session.js';
import { chooseAccount, requireOperator } from './manage-scope.js';
import { smsProviderPage } from './sms-provider.views.js';

const Query = Type.Object({ account: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), lang: Type.Optional(Type.String()) });

/** An account's own SMS provider for operators, read only (GET /admin/v1/accounts/{id}/sms_provider's call). */
export const smsProviderRoutes =
  (ctx: AdminContext): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));

    app.get('/console/sms-provider', { schema: { hide: true, querystring: Query } }, async (req, reply) => {
      const viewer = viewerOf(req);
      requireOperator(viewer);
      const scope = await accountScope(ctx.accounts, viewer, (req.query as { account?: string }).account);
      if (!scope) return chooseAccount(reply);
      // The account exists (accountScope): messaging's NOT_FOUND means it has no provider of its own.
      const found = await ctx.smsProvider.getSmsProvider({ accountId: scope.accountId }).catch((err: unknown) => {
        if (err instanceof AppError && err.kind === 'not_found') return { provider: undefined };
        throw err;
      });
      const p = found.provider;
      return sendHtml(
        reply,
        200,
        smsProviderPage(pageContext(req, viewer), {
          ...scope,
          provider: p ? { config: JSON.parse(p.configJson) as unknown, updatedAt: p.updatedAt } : null,
          timeZone: ctx.displayTimeZone,
        }),
      );
    });
  };
