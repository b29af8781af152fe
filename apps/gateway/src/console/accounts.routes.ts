import { Type } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createAccount, listAccounts, requireAccount } from '../accounts/domain/accounts.use-cases.js';
import { accountPage, accountsPage } from './accounts.views.js';
import type { AdminContext } from './console.routes.js';
import { pageContext, sendHtml, viewerOf } from './console-page.js';
import { requireCsrf, requireSession } from './console-session.js';
import { fieldErrorsOf, formField, requireOperator } from './manage-scope.js';

const PAGE_SIZE = 50;
const ListQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 500 })), lang: Type.Optional(Type.String()) });
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** The deployment's accounts, for operators: a page at a time, creating one, and one account's pages. */
export const accountsRoutes =
  (ctx: AdminContext): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));
    const operator = (req: FastifyRequest) => {
      const viewer = viewerOf(req);
      requireOperator(viewer);
      return viewer;
    };
    const list = async (
      req: FastifyRequest,
      reply: FastifyReply,
      status: number,
      pageToken: string,
      form?: { name: string; errors: Record<string, string> },
    ) => {
      const viewer = operator(req);
      const found = await listAccounts(ctx.directory, { pageSize: PAGE_SIZE, pageToken });
      return sendHtml(
        reply,
        status,
        accountsPage(pageContext(req, viewer), {
          viewer,
          accounts: found.items,
          nextPageToken: found.nextPageToken,
          firstPage: !pageToken,
          timeZone: ctx.displayTimeZone,
          form,
        }),
      );
    };

    app.get('/console/accounts', { schema: { hide: true, querystring: ListQuery } }, (req, reply) =>
      list(req, reply, 200, (req.query as { page?: string }).page ?? ''),
    );

    app.post('/console/accounts', { schema: { hide: true }, preHandler: requireCsrf(ctx.publicOrigin) }, async (req, reply) => {
      operator(req);
      const name = formField(req.body, 'name');
      try {
        const account = await createAccount(ctx.accountsAdmin, name);
        return await reply.redirect(`/console/accounts/${encodeURIComponent(account.id)}`, 303);
      } catch (err) {
        const errors = fieldErrorsOf(err);
        if (!errors) throw err;
        return list(req, reply, 400, '', { name, errors });
      }
    });

    app.get('/console/accounts/:id', { schema: { hide: true, params: Params } }, async (req, reply) => {
      const viewer = operator(req);
      const account = await requireAccount(ctx.accountsAdmin, (req.params as { id: string }).id);
      return sendHtml(reply, 200, accountPage(pageContext(req, viewer), { account, timeZone: ctx.displayTimeZone }));
    });
  };
