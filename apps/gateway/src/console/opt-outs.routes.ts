import { Type } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '@feedback/kit-core';
import type { FormValues } from '../api/surveys/survey-form.js';
import { accountScope } from './account-scope.js';
import { accountPickerPage } from './campaigns.views.js';
import type { ConsoleSmsDataPort } from './console.feature.js';
import type { ConsoleContext } from './console.routes.js';
import { canAct, pageContext, scoped, sendHtml, viewerOf } from './console-page.js';
import { requireCsrf, requireSession } from './console-session.js';
import { messagePage } from './layout.views.js';
import { optOutsPage } from './opt-outs.views.js';

const PAGE_SIZE = 50;
/** As the API's POST /v1/sms_opt_outs. */
const MAX_PHONES = 1000;
const Query = Type.Object({
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  phone: Type.Optional(Type.String({ maxLength: 40 })),
  page: Type.Optional(Type.String({ maxLength: 1024 })),
  added: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  already: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  removed: Type.Optional(Type.Literal('1')),
  lang: Type.Optional(Type.String()),
});

/** The account's SMS opt-out list: a page at a time or one phone, add phones, take one off. */
export const optOutsRoutes =
  (ctx: ConsoleContext & { smsData: ConsoleSmsDataPort }): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));
    const tz = ctx.displayTimeZone;

    app.get('/console/opt-outs', { schema: { hide: true, querystring: Query } }, async (req, reply) => {
      const viewer = viewerOf(req);
      const q = req.query as { account?: string; phone?: string; page?: string; added?: string; already?: string; removed?: string };
      const page = pageContext(req, viewer);
      const scope = await accountScope(ctx.accounts, viewer, q.account);
      if (!scope) return sendHtml(reply, 200, accountPickerPage(page));
      const phone = q.phone?.trim() ?? '';
      const found = await ctx.smsData.listSmsOptOuts({ accountId: scope.accountId, phone, pageSize: PAGE_SIZE, pageToken: q.page ?? '' });
      return sendHtml(
        reply,
        200,
        optOutsPage(
          page,
          {
            viewer,
            accountId: scope.accountId,
            phone,
            optOuts: found.optOuts,
            nextPageToken: found.nextPageToken,
            firstPage: !q.page,
            added: q.added === undefined ? undefined : { added: Number(q.added), already: Number(q.already ?? 0) },
            removed: q.removed === '1',
          },
          tz,
        ),
      );
    });

    /** A write's viewer and account, or the 403 page sent. */
    const writer = async (req: FastifyRequest, reply: FastifyReply) => {
      const viewer = viewerOf(req);
      if (!canAct(viewer.role)) {
        await sendHtml(reply, 403, messagePage(pageContext(req, viewer), 'forbidden'));
        return null;
      }
      const scope = await accountScope(ctx.accounts, viewer, (req.body as FormValues | undefined)?.account?.[0]);
      if (!scope) throw errors.invalid({ account: 'is required' });
      return { viewer, accountId: scope.accountId };
    };

    app.post('/console/opt-outs', { schema: { hide: true }, preHandler: requireCsrf(ctx.publicOrigin) }, async (req, reply) => {
      const who = await writer(req, reply);
      if (!who) return reply;
      const phones = ((req.body as FormValues).phones?.[0] ?? '')
        .split(/[\r\n,;]+/)
        .map((p) => p.trim())
        .filter(Boolean);
      if (phones.length === 0) throw errors.invalid({ phones: 'must name at least one phone' });
      if (phones.length > MAX_PHONES) throw errors.invalid({ phones: `must name at most ${MAX_PHONES} phones` });
      const res = await ctx.smsData.addSmsOptOuts({ accountId: who.accountId, phoneNumbers: phones, source: 'api' });
      return reply.redirect(
        scoped('/console/opt-outs', who.viewer, who.accountId, { added: String(res.added), already: String(res.already) }),
        303,
      );
    });

    app.post('/console/opt-outs/remove', { schema: { hide: true }, preHandler: requireCsrf(ctx.publicOrigin) }, async (req, reply) => {
      const who = await writer(req, reply);
      if (!who) return reply;
      const phone = (req.body as FormValues).phone?.[0]?.trim() ?? '';
      if (!phone) throw errors.invalid({ phone: 'is required' });
      await ctx.smsData.deleteSmsOptOut({ accountId: who.accountId, phone });
      return reply.redirect(scoped('/console/opt-outs', who.viewer, who.accountId, { removed: '1' }), 303);
    });
  };
