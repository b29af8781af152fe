import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses, pageRequest } from '../../http/common.schemas.js';
import { smsAllowedHook } from './sharing-limit.hooks.js';
import {
  CampaignPageQuery,
  CampaignSharingsQuery,
  CampaignSummaryPageSchema,
  SharingSummaryPageSchema,
  SharingsQuery,
} from './sms-lists.schemas.js';
import { campaignSummariesView, sharingFilters, sharingSummariesView } from './sms-lists.views.js';
import type { SmsPort } from './sms.port.js';
import { CampaignParams } from './sms.schemas.js';

const PAGING = 'A page at a time (`page_size`, then `page_token` = the previous `next_page_token`, null on the last page).';
const ENTRY =
  'Each sharing is what it stores (phones accepted, rejected, duplicate; its dates), its status, and its counters (totals, funnel, segments: about a second behind what happened, zeros until the first count); its exact counts by status and its recipients are in GET /v1/sms_sharings/{id}.';

/** The account's campaigns and sharings, newest first (docs/api.md "Lists of campaigns and sharings"). */
export const smsListsRoutes =
  (deps: {
    sms: Pick<SmsPort, 'listSmsCampaigns' | 'listSmsSharings'>;
    auth: Authenticator;
    disabledAccounts: ReadonlySet<string>;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const onRequest = [deps.auth(['api']), smsAllowedHook(deps.disabledAccounts)];
    const common = { tags: ['sms'], security: [{ apiToken: [] }] };

    app.get(
      '/v1/sms_campaigns',
      {
        onRequest,
        schema: {
          ...common,
          summary: "List the account's SMS campaigns, newest first",
          operationId: 'listAccountSmsCampaigns',
          description: `Each campaign's id, name, flow and creation date. ${PAGING}`,
          querystring: CampaignPageQuery,
          response: { 200: CampaignSummaryPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) =>
        campaignSummariesView(await deps.sms.listSmsCampaigns({ accountId: principalOf(req).accountId, ...pageRequest(req.query) })),
    );

    app.get(
      '/v1/sms_sharings',
      {
        onRequest,
        schema: {
          ...common,
          summary: "List the account's SMS sharings, newest first",
          operationId: 'listSmsSharings',
          description: `Optionally of one campaign, in one status, created in a range. ${ENTRY} ${PAGING} Another account's campaign answers 404 like an unknown one.`,
          querystring: SharingsQuery,
          response: { 200: SharingSummaryPageSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) =>
        sharingSummariesView(
          await deps.sms.listSmsSharings({
            accountId: principalOf(req).accountId,
            campaignId: req.query.campaign_id ?? '',
            ...sharingFilters(req.query),
            ...pageRequest(req.query),
          }),
        ),
    );

    app.get(
      '/v1/sms_campaigns/:campaign_id/sms_sharings',
      {
        onRequest,
        schema: {
          ...common,
          summary: "List an SMS campaign's sharings, newest first",
          operationId: 'listCampaignSmsSharings',
          description: `Optionally in one status, created in a range. ${ENTRY} ${PAGING} Another account's campaign answers 404 like an unknown one.`,
          params: CampaignParams,
          querystring: CampaignSharingsQuery,
          response: { 200: SharingSummaryPageSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) =>
        sharingSummariesView(
          await deps.sms.listSmsSharings({
            accountId: principalOf(req).accountId,
            campaignId: req.params.campaign_id,
            ...sharingFilters(req.query),
            ...pageRequest(req.query),
          }),
        ),
    );
  };
