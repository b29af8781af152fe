import { Type } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { accountScope } from './account-scope.js';
import { campaignPage } from './campaign.views.js';
import { accountPickerPage, campaignsPage } from './campaigns.views.js';
import type { ConsoleContext } from './console.routes.js';
import { pageContext, sendHtml, viewerOf } from './console-page.js';
import { requireSession } from './console-session.js';

const PAGE_SIZE = 20;
const Token = Type.String({ maxLength: 500 });
const Account = Type.String({ minLength: 1, maxLength: 100 });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const ListQuery = Type.Object({ account: Type.Optional(Account), page: Type.Optional(Token), lang: Type.Optional(Type.String()) });
const CampaignQuery = Type.Object({
  account: Type.Optional(Account),
  from: Type.Optional(Type.Union([Day, Type.Literal('')])),
  to: Type.Optional(Type.Union([Day, Type.Literal('')])),
  interval: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('hour')])),
  sharings_page: Type.Optional(Token),
  lang: Type.Optional(Type.String()),
});
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const previousDay = (iso: string) => new Date(Date.parse(iso) - 1).toISOString().slice(0, 10);

/** The account's campaigns with their key numbers, and one campaign's report and sharings. */
export const campaignsRoutes =
  (ctx: ConsoleContext): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));
    const tz = ctx.displayTimeZone;

    const list = async (req: FastifyRequest, reply: FastifyReply) => {
      const viewer = viewerOf(req);
      const query = req.query as { account?: string; page?: string };
      const page = pageContext(req, viewer);
      const scope = await accountScope(ctx.accounts, viewer, query.account);
      if (!scope) return sendHtml(reply, 200, accountPickerPage(page));
      const { accountId } = scope;
      const campaigns = await ctx.sms.listSmsCampaigns({ accountId, pageSize: PAGE_SIZE, pageToken: query.page ?? '' });
      // One report per campaign shown, all at once: the page costs the slowest, not the sum.
      const rows = await Promise.all(
        campaigns.campaigns.map(async (campaign) => ({
          campaign,
          report: await ctx.sms
            .getCampaignReport({ accountId, campaignId: campaign.id, from: '', to: '', interval: 'day', timeZone: tz })
            .catch((err: unknown) => (req.log.warn({ err }, 'a campaign report could not be read'), null)),
        })),
      );
      return sendHtml(
        reply,
        200,
        campaignsPage(page, {
          viewer,
          accountId,
          accountName: scope.accountName,
          rows,
          nextPageToken: campaigns.nextPageToken,
          firstPage: !query.page,
          timeZone: tz,
        }),
      );
    };
    app.get('/console/', { schema: { hide: true, querystring: ListQuery } }, list);
    app.get('/console/campaigns', { schema: { hide: true, querystring: ListQuery } }, list);

    app.get('/console/campaigns/:id', { schema: { hide: true, params: Params, querystring: CampaignQuery } }, async (req, reply) => {
      const viewer = viewerOf(req);
      const { id } = req.params as { id: string };
      const query = req.query as { account?: string; from?: string; to?: string; interval?: string; sharings_page?: string };
      const page = pageContext(req, viewer);
      const scope = await accountScope(ctx.accounts, viewer, query.account);
      if (!scope) return sendHtml(reply, 200, accountPickerPage(page));
      const { accountId } = scope;
      // Another account's campaign: messaging answers NOT_FOUND, the error handler the 404 page.
      const [report, sharings] = await Promise.all([
        ctx.sms.getCampaignReport({
          accountId,
          campaignId: id,
          from: query.from ?? '',
          // The form's `to` is a whole day, included.
          to: query.to ? nextDay(query.to) : '',
          interval: query.interval ?? 'day',
          timeZone: tz,
        }),
        ctx.sms.listSmsSharings({
          accountId,
          campaignId: id,
          status: '',
          createdAfter: '',
          createdBefore: '',
          pageSize: PAGE_SIZE,
          pageToken: query.sharings_page ?? '',
        }),
      ]);
      const name = report.campaignName || id;
      return sendHtml(
        reply,
        200,
        campaignPage(
          page,
          {
            viewer,
            accountId,
            campaignId: id,
            name,
            report,
            sharings: sharings.sharings,
            sharingsNext: sharings.nextPageToken,
            from: report.from.slice(0, 10),
            to: report.to ? previousDay(report.to) : '',
          },
          tz,
        ),
      );
    });
  };
