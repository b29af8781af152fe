import { Type } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { FormValues } from '../api/surveys/survey-form.js';
import { accountScope } from './account-scope.js';
import type { ConsoleContext } from './console.routes.js';
import { canAct, pageContext, scoped, sendHtml, viewerOf } from './console-page.js';
import { requireCsrf, requireSession } from './console-session.js';
import { accountPickerPage } from './campaigns.views.js';
import { messagePage } from './layout.views.js';
import { RECIPIENT_STATUSES, sharingPage } from './sharing.views.js';

const PAGE_SIZE = 50;
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const Query = Type.Object({
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  status: Type.Optional(Type.Union([Type.Literal(''), ...RECIPIENT_STATUSES.map((s) => Type.Literal(s))])),
  phone: Type.Optional(Type.String({ maxLength: 40 })),
  page: Type.Optional(Type.String({ maxLength: 1024 })),
  cancelled: Type.Optional(Type.String({ pattern: '^[0-9]{1,7}$' })),
  lang: Type.Optional(Type.String()),
});

/** A sharing's recipients (filtered by status, found by phone, a page at a time) and cancelling a scheduled one. */
export const sharingRoutes =
  (ctx: ConsoleContext): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));
    const tz = ctx.displayTimeZone;

    app.get('/console/sharings/:id', { schema: { hide: true, params: Params, querystring: Query } }, async (req, reply) => {
      const viewer = viewerOf(req);
      const { id } = req.params as { id: string };
      const query = req.query as { account?: string; status?: string; phone?: string; page?: string; cancelled?: string };
      const page = pageContext(req, viewer);
      const scope = await accountScope(ctx.accounts, viewer, query.account);
      if (!scope) return sendHtml(reply, 200, accountPickerPage(page));
      // One page of recipients, never all of them: messaging reads only what the page shows.
      const found = await ctx.sms.listSharingRecipients({
        accountId: scope.accountId,
        sharingId: id,
        status: query.status ?? '',
        phone: query.phone?.trim() ?? '',
        pageSize: PAGE_SIZE,
        pageToken: query.page ?? '',
      });
      return sendHtml(
        reply,
        200,
        sharingPage(
          page,
          {
            viewer,
            accountId: scope.accountId,
            sharing: found.sharing!,
            recipients: found.recipients,
            nextPageToken: found.nextPageToken,
            firstPage: !query.page,
            status: query.status ?? '',
            phone: query.phone ?? '',
            cancelled: query.cancelled === undefined ? undefined : Number(query.cancelled),
          },
          tz,
        ),
      );
    });

    app.post(
      '/console/sharings/:id/cancel',
      { schema: { hide: true, params: Params }, preHandler: requireCsrf(ctx.publicOrigin) },
      async (req, reply) => {
        const viewer = viewerOf(req);
        if (!canAct(viewer.role)) return sendHtml(reply, 403, messagePage(pageContext(req, viewer), 'forbidden'));
        const { id } = req.params as { id: string };
        const scope = await accountScope(ctx.accounts, viewer, (req.body as FormValues | undefined)?.account?.[0]);
        if (!scope) return sendHtml(reply, 200, accountPickerPage(pageContext(req, viewer)));
        const result = await ctx.sms.cancelSmsSharing({ accountId: scope.accountId, sharingId: id }, { deadlineMs: ctx.cancelDeadlineMs });
        return reply.redirect(
          scoped(`/console/sharings/${encodeURIComponent(id)}`, viewer, scope.accountId, { cancelled: String(result.cancelled) }),
          303,
        );
      },
    );
  };
