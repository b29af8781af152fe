import { Readable } from 'node:stream';
import { errors } from '@feedback/kit-core';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import { principalOf, type Authenticator } from '../../http/auth.js';
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
  auth: Authenticator;
}

/** Pages the export reads from the survey service: the most ListResponses gives at once. */
const EXPORT_PAGE_SIZE = 200;

type Filters = { flow_id?: string; channel_id?: string; customer_external_id?: string; since?: string; until?: string };

const filterFields = (accountId: string, q: Filters) => ({
  accountId,
  flowId: q.flow_id ?? '',
  channelId: q.channel_id ?? '',
  customerExternalId: q.customer_external_id ?? '',
  since: q.since ?? '',
  until: q.until ?? '',
});

const CSV_RESPONSE = {
  description:
    'text/csv (RFC 4180, UTF-8, CRLF): a header, then one record per response, newest first. Streamed: an error after the first bytes ends the download early (the last record is then missing its CRLF).',
  content: {
    'text/csv': {
      schema: { type: 'string' },
      example: 'id,created_at,flow_id,channel_id,customer_external_id,customer_email,customer_phone,nps,comment\r\n',
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
            'Every filter is optional and all given ones apply. A foreign or unknown flow_id or channel_id answers 404 naming it; an unknown customer_external_id an empty list. since after until, a malformed date or id, a page_size outside 1-200 or a page_token this list did not answer are 400 naming the field. A page at a time: pass next_page_token as page_token (with the same filters).',
          querystring: ResponsePageQuery,
          response: { 200: SurveyResponsePageSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const page = await deps.surveys.listResponses({
          ...filterFields(principalOf(req).accountId, req.query),
          ...pageRequest(req.query),
        });
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
            "The filters of the list; flow_id or channel_id is required, since the columns are that flow's questions: id, created_at, flow_id, channel_id, customer_external_id, customer_email, customer_phone, then one column per question key (choices as option keys joined by `;`). A text starting with = + - @ is prefixed with ' so that no spreadsheet runs it. Streamed page by page, however many responses.",
          querystring: ResponseFilterQuery,
          response: { 200: CSV_RESPONSE, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        const accountId = principalOf(req).accountId;
        const filters = filterFields(accountId, req.query);
        const flowId =
          filters.flowId ||
          (filters.channelId ? (await deps.surveys.describeChannel({ accountId, channelId: filters.channelId })).channel?.flowId : '');
        if (!flowId) throw errors.invalid({ flow_id: 'is required (or channel_id): the columns are the questions of one flow' });
        const { flow } = await deps.flows.getFlow({ accountId, flowId });
        const keys = (flow?.questions ?? []).filter((q) => q.style !== 'statement').map((q) => q.key);
        // The first page before the status line: a bad filter still answers 400 / 404 in JSON.
        const first = await deps.surveys.listResponses({ ...filters, pageSize: EXPORT_PAGE_SIZE, pageToken: '' });
        async function* pages(): AsyncGenerator<SurveyResponse[]> {
          yield first.responses;
          for (let token = first.nextPageToken; token;) {
            const page = await deps.surveys.listResponses({ ...filters, pageSize: EXPORT_PAGE_SIZE, pageToken: token });
            yield page.responses;
            token = page.nextPageToken;
          }
        }
        const body = Readable.from(responsesCsv(keys, pages()), { objectMode: false });
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
            "For every question of style nps (0-10): promoters (9-10), passives (7-8), detractors (0-6), their total and score = round(% promoters - % detractors), over the responses the filters select. 404 naming flow_id for another account's flow or an unknown one, channel_id likewise.",
          params: NpsParams,
          querystring: NpsQuery,
          response: { 200: NpsSummarySchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const { questions } = await deps.surveys.getNpsSummary({
          ...filterFields(principalOf(req).accountId, req.query),
          flowId: req.params.flow_id,
        });
        return npsView(req.params.flow_id, questions);
      },
    );
  };
