import { Readable } from 'node:stream';
import { errors } from '@feedback/kit-core';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { withChannel, type CampaignChannels } from './campaign-channels.js';
import { errorResponses, pageRequest } from '../../http/common.schemas.js';
import { responsesCsv } from './responses-csv.js';
import type { FlowQuestionsPort, ResponsesPort } from './responses.port.js';
import {
  NpsParams,
  NpsQuery,
  NpsSummarySchema,
  ResponseFilterQuery,
  ResponsePageQuery,
  ResponseParams,
  SurveyResponsePageSchema,
} from './responses.schemas.js';
import { npsView, surveyResponseView } from './responses.views.js';

export interface ResponsesRoutesDeps {
  surveys: ResponsesPort;
  flows: FlowQuestionsPort;
  campaigns: CampaignChannels;
  auth: Authenticator;
}

/** Pages the export reads from the survey service: the most ListResponses gives at once. */
const EXPORT_PAGE_SIZE = 200;

type Filters = { flow_id?: string; customer_external_id?: string; since?: string; until?: string; sharing_id?: string };

/** The survey service's filters but the channel, which campaign-channels.ts resolves (a campaign is a channel). */
export const filterFields = (accountId: string, q: Filters) => ({
  accountId,
  flowId: q.flow_id ?? '',
  customerExternalId: q.customer_external_id ?? '',
  since: q.since ?? '',
  until: q.until ?? '',
  sharingId: q.sharing_id ?? '',
});

/** The NPS route's periods and groups, as the survey service names them. */
export const npsBreakdown = (q: { interval?: string; time_zone?: string; group_by?: string }) => ({
  interval: q.interval ?? '',
  timeZone: q.time_zone ?? '',
  groupBy: q.group_by ?? '',
});

const CSV_RESPONSE = {
  description:
    'text/csv (RFC 4180, UTF-8, CRLF): a header, then one record per response, newest first. Streamed: an error after the first bytes ends the download early (the last record is then missing its CRLF).',
  content: {
    'text/csv': {
      schema: { type: 'string' },
      example:
        'id,created_at,flow_id,channel_id,customer_external_id,customer_email,customer_phone,built_in_responses.customerDetailInfo1,built_in_responses.customerDetailInfo2,campaign_id,sharing_id,message_id,custom_attributes.order_id,nps,comment\r\n',
    },
  },
};

/** The account's survey responses for integrators (docs/api.md "Responses"): list, one, NPS, CSV export. */
export const responsesRoutes =
  (deps: ResponsesRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const onRequest = deps.auth(['api']);
    const common = { tags: ['responses'], security: [{ apiToken: [] }] };

    app.get(
      '/v1/responses',
      {
        onRequest,
        schema: {
          ...common,
          summary: "List the account's survey responses, newest first",
          operationId: 'listSurveyResponses',
          description:
            'Every filter is optional and all given ones apply. A foreign or unknown flow_id, channel_id or campaign_id answers 404 naming it (channel_id may be an SMS campaign id); an unknown customer_external_id or sharing_id an empty list. since after until, a malformed date or id, a page_size outside 1-200 or a page_token this list did not answer are 400 naming the field. A page at a time: pass next_page_token as page_token (with the same filters).',
          querystring: ResponsePageQuery,
          response: { 200: SurveyResponsePageSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const accountId = principalOf(req).accountId;
        const page = await withChannel(deps.campaigns, accountId, req.query, (channelId) =>
          deps.surveys.listResponses({ ...filterFields(accountId, req.query), channelId, ...pageRequest(req.query) }),
        );
        return { data: page.responses.map(surveyResponseView), next_page_token: page.nextPageToken || null };
      },
    );

    app.get(
      '/v1/responses/export.csv',
      {
        onRequest,
        schema: {
          ...common,
          summary: "Export the account's survey responses as CSV",
          operationId: 'exportSurveyResponses',
          description:
            "The filters of the list; flow_id, channel_id or campaign_id is required, since the columns are that flow's questions: id, created_at, flow_id, channel_id, customer_external_id, customer_email, customer_phone, the two built-in responses, campaign_id, sharing_id, message_id, one column per custom attribute of the exported responses (custom_attributes.<name>, sorted), then one column per question key (choices as option keys joined by `;`). A text starting with = + - @ is prefixed with ' so that no spreadsheet runs it. Streamed page by page, however many responses (read twice: the attribute columns first).",
          querystring: ResponseFilterQuery,
          response: { 200: CSV_RESPONSE, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        const accountId = principalOf(req).accountId;
        // The first page before the status line: a bad filter still answers 400 / 404 in JSON.
        const { filters, flowId, first } = await withChannel(deps.campaigns, accountId, req.query, async (channelId) => {
          const filters = { ...filterFields(accountId, req.query), channelId };
          const flowId =
            filters.flowId || (channelId ? (await deps.surveys.describeChannel({ accountId, channelId })).channel?.flowId : '');
          if (!flowId)
            throw errors.invalid({ flow_id: 'is required (or channel_id or campaign_id): the columns are the questions of one flow' });
          const first = await deps.surveys.listResponses({ ...filters, pageSize: EXPORT_PAGE_SIZE, pageToken: '' });
          return { filters, flowId, first };
        });
        const { flow } = await deps.flows.getFlow({ accountId, flowId });
        const keys = (flow?.questions ?? []).filter((q) => q.style !== 'statement').map((q) => q.key);
        // Read twice: once for the custom attribute columns (their union), then for the records.
        async function* pages(): AsyncGenerator<SurveyResponse[]> {
          yield first.responses;
          for (let token = first.nextPageToken; token;) {
            const page = await deps.surveys.listResponses({ ...filters, pageSize: EXPORT_PAGE_SIZE, pageToken: token });
            yield page.responses;
            token = page.nextPageToken;
          }
        }
        const body = Readable.from(responsesCsv(keys, pages), { objectMode: false });
        body.on('error', (err) => req.log.warn({ err }, 'responses export ended early'));
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="responses-${flowId}.csv"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );

    app.get(
      '/v1/responses/:response_id',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Get one survey response',
          operationId: 'getSurveyResponse',
          description: "404 naming response_id for an unknown id or another account's.",
          params: ResponseParams,
          response: { 200: { $ref: 'SurveyResponse#' }, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => {
        const { response } = await deps.surveys.getResponse({ accountId: principalOf(req).accountId, responseId: req.params.response_id });
        return surveyResponseView(response);
      },
    );

    app.get(
      '/v1/flows/:flow_id/nps',
      {
        onRequest,
        schema: {
          ...common,
          summary: "A flow's Net Promoter Score, per nps question",
          operationId: 'getFlowNps',
          description:
            "For every question of style nps (0-10): promoters (9-10), passives (7-8), detractors (0-6), their total and score = round(% promoters - % detractors), over the responses the filters select. 404 naming flow_id for another account's flow or an unknown one, channel_id and campaign_id likewise; sharing_id selects the answers to one SMS sharing's links. interval=day|week adds each question's `series` (the periods with answers, in time_zone, default UTC); group_by=<custom attribute> adds its `groups` (one per value, at most 1,000).",
          params: NpsParams,
          querystring: NpsQuery,
          response: { 200: NpsSummarySchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const accountId = principalOf(req).accountId;
        const { questions } = await withChannel(deps.campaigns, accountId, req.query, (channelId) =>
          deps.surveys.getNpsSummary({
            ...filterFields(accountId, req.query),
            ...npsBreakdown(req.query),
            channelId,
            flowId: req.params.flow_id,
          }),
        );
        return npsView(req.params.flow_id, questions, req.query);
      },
    );
  };
