import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses, pageRequest } from '../../http/common.schemas.js';
import { withChannel, type CampaignChannels } from '../responses/campaign-channels.js';
import type { SurveysPort } from './surveys.port.js';
import { ResponseListSchema, ResponsesQuery } from './surveys.schemas.js';
import { responseView } from './surveys.views.js';

/** The answers customers gave, newest first, a page at a time. */
export const responsesAdminRoutes =
  (deps: {
    surveys: Pick<SurveysPort, 'listResponses'>;
    accounts: AccountRepository;
    campaigns: CampaignChannels;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/accounts/:account_id/responses',
      {
        schema: {
          tags: ['admin'],
          security: [{ adminToken: [] }],
          summary: 'List survey responses, newest first',
          operationId: 'listResponses',
          description:
            "The filters of GET /v1/responses (flow_id, channel_id, campaign_id: 404 when not the account's; sharing_id, customer_external_id, since, until: 400 naming a bad one). page_size 1-200 (default 50); pass next_page_token as page_token for the next page.",
          params: AccountParams,
          querystring: ResponsesQuery,
          response: { 200: ResponseListSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const accountId = req.params.account_id;
        const { responses, nextPageToken } = await withChannel(deps.campaigns, accountId, req.query, (channelId) =>
          deps.surveys.listResponses({
            accountId,
            flowId: req.query.flow_id ?? '',
            ...pageRequest(req.query),
            channelId,
            customerExternalId: req.query.customer_external_id ?? '',
            since: req.query.since ?? '',
            until: req.query.until ?? '',
            sharingId: req.query.sharing_id ?? '',
          }),
        );
        return { data: responses.map(responseView), next_page_token: nextPageToken || null };
      },
    );
  };
