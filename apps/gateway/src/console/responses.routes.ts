import { Readable } from 'node:stream';
import { Type } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import type { SmsCampaign } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import type { FastifyPluginAsync } from 'fastify';
import type { FlowQuestionsPort } from '../api/responses/responses.port.js';
import { responsesCsv } from '../api/responses/responses-csv.js';
import { accountScope } from './account-scope.js';
import { accountPickerPage } from './campaigns.views.js';
import type { ConsoleResponsesPort } from './console.feature.js';
import type { ConsoleContext } from './console.routes.js';
import { pageContext, sendHtml, viewerOf } from './console-page.js';
import { requireSession } from './console-session.js';
import { responsePage, responsesPage } from './responses.views.js';

const PAGE_SIZE = 50;
/** The most ListResponses gives at once, as the API's export reads. */
const EXPORT_PAGE_SIZE = 200;
/** Enough to list an account's campaigns in the filter in one read (messaging's list has no search). */
const CAMPAIGNS_SHOWN = 200;
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Filters = {
  account: Type.Optional(Id),
  campaign: Type.Optional(Type.Union([Id, Type.Literal('')])),
  from: Type.Optional(Type.Union([Day, Type.Literal('')])),
  to: Type.Optional(Type.Union([Day, Type.Literal('')])),
  lang: Type.Optional(Type.String()),
};
const ListQuery = Type.Object({ ...Filters, page: Type.Optional(Type.String({ maxLength: 1024 })) });
const ExportQuery = Type.Object(Filters);
const OneQuery = Type.Object({ account: Type.Optional(Id), lang: Type.Optional(Type.String()) });
const Params = Type.Object({ id: Id });

type FilterQuery = { account?: string; campaign?: string; from?: string; to?: string };

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The start of a day in the display time zone, as the survey service reads an instant (its offset that day). */
export function dayStart(day: string, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(`${day}T12:00:00Z`))
    .find((p) => p.type === 'timeZoneName')?.value;
  const offset = name && name !== 'GMT' ? name.slice(3) : '+00:00';
  return `${day}T00:00:00${offset}`;
}

/**
 * The account's survey responses: filtered by campaign and days (the API's GET /v1/responses
 * filters), one response with its answers and context, and the API's CSV export of a campaign.
 */
export const responsesRoutes =
  (ctx: ConsoleContext & { responses: ConsoleResponsesPort; flows: FlowQuestionsPort }): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));
    const tz = ctx.displayTimeZone;

    /** The survey service's filters; a campaign the account does not have is 404 (a campaign is its survey channel). */
    const filtersOf = (accountId: string, q: FilterQuery, campaigns: SmsCampaign[]) => {
      const campaign = q.campaign ? campaigns.find((c) => c.id === q.campaign) : undefined;
      if (q.campaign && !campaign) throw errors.notFound('campaign_id', q.campaign);
      if (q.from && q.to && q.from > q.to) throw errors.invalid({ from: 'must not be after to' });
      return {
        accountId,
        flowId: '',
        channelId: campaign?.channelId ?? '',
        customerExternalId: '',
        // Days in DISPLAY_TIME_ZONE, as every date the console shows; the form's `to` is a whole day, included.
        since: q.from ? dayStart(q.from, tz) : '',
        until: q.to ? dayStart(nextDay(q.to), tz) : '',
        campaign,
      };
    };

    app.get('/console/responses', { schema: { hide: true, querystring: ListQuery } }, async (req, reply) => {
      const viewer = viewerOf(req);
      const q = req.query as FilterQuery & { page?: string };
      const page = pageContext(req, viewer);
      const scope = await accountScope(ctx.accounts, viewer, q.account);
      if (!scope) return sendHtml(reply, 200, accountPickerPage(page));
      const { campaigns } = await ctx.sms.listSmsCampaigns({ accountId: scope.accountId, pageSize: CAMPAIGNS_SHOWN, pageToken: '' });
      const { campaign, ...filters } = filtersOf(scope.accountId, q, campaigns);
      const found = await ctx.responses.listResponses({ ...filters, pageSize: PAGE_SIZE, pageToken: q.page ?? '' });
      return sendHtml(
        reply,
        200,
        responsesPage(
          page,
          {
            viewer,
            accountId: scope.accountId,
            campaigns,
            campaignId: campaign?.id ?? '',
            from: q.from ?? '',
            to: q.to ?? '',
            responses: found.responses,
            nextPageToken: found.nextPageToken,
            firstPage: !q.page,
          },
          tz,
        ),
      );
    });

    // Before /:id, though find-my-way prefers the static route anyway.
    app.get('/console/responses/export.csv', { schema: { hide: true, querystring: ExportQuery } }, async (req, reply) => {
      const viewer = viewerOf(req);
      const q = req.query as FilterQuery;
      const scope = await accountScope(ctx.accounts, viewer, q.account);
      if (!scope) throw errors.invalid({ account: 'is required' });
      const { accountId } = scope;
      if (!q.campaign) throw errors.invalid({ campaign: 'is required: the columns are the questions of its flow' });
      const { campaigns } = await ctx.sms.listSmsCampaigns({ accountId, pageSize: CAMPAIGNS_SHOWN, pageToken: '' });
      const { campaign, ...filters } = filtersOf(accountId, q, campaigns);
      const flowId = campaign!.flowId;
      // The first page before the status line: a failure still answers an error page.
      const first = await ctx.responses.listResponses({ ...filters, pageSize: EXPORT_PAGE_SIZE, pageToken: '' });
      const { flow } = await ctx.flows.getFlow({ accountId, flowId });
      const keys = (flow?.questions ?? []).filter((x) => x.style !== 'statement').map((x) => x.key);
      async function* pages(): AsyncGenerator<SurveyResponse[]> {
        yield first.responses;
        for (let token = first.nextPageToken; token;) {
          const next = await ctx.responses.listResponses({ ...filters, pageSize: EXPORT_PAGE_SIZE, pageToken: token });
          yield next.responses;
          token = next.nextPageToken;
        }
      }
      const body = Readable.from(responsesCsv(keys, pages), { objectMode: false });
      body.on('error', (err) => req.log.warn({ err }, 'responses export ended early'));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="responses-${campaign!.id}.csv"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    });

    app.get('/console/responses/:id', { schema: { hide: true, params: Params, querystring: OneQuery } }, async (req, reply) => {
      const viewer = viewerOf(req);
      const { id } = req.params as { id: string };
      const page = pageContext(req, viewer);
      const scope = await accountScope(ctx.accounts, viewer, (req.query as { account?: string }).account);
      if (!scope) return sendHtml(reply, 200, accountPickerPage(page));
      // Another account's response: the survey service answers NOT_FOUND.
      const { response } = await ctx.responses.getResponse({ accountId: scope.accountId, responseId: id });
      if (!response) throw errors.notFound('response_id', id);
      return sendHtml(reply, 200, responsePage(page, { viewer, accountId: scope.accountId, response }, tz));
    });
  };
