import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { withChannel, type CampaignChannels } from './campaign-channels.js';
import type { ResponsesPort } from './responses.port.js';
import { filterFields, npsBreakdown } from './responses.routes.js';
import { NpsParams, NpsQuery, NpsSummarySchema } from './responses.schemas.js';
import { npsView } from './responses.views.js';

/** GET /v1/flows/{flow_id}/nps for operators (feedbackctl responses nps). */
export const npsAdminRoutes =
  (deps: {
    surveys: Pick<ResponsesPort, 'getNpsSummary'>;
    accounts: AccountRepository;
    campaigns: CampaignChannels;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/accounts/:account_id/flows/:flow_id/nps',
      {
        schema: {
          tags: ['admin'],
          security: [{ adminToken: [] }],
          summary: "A flow's Net Promoter Score, per nps question",
          operationId: 'getAccountFlowNps',
          description: 'As GET /v1/flows/{flow_id}/nps with the account’s API token.',
          params: Type.Object({ ...AccountParams.properties, ...NpsParams.properties }),
          querystring: NpsQuery,
          response: { 200: NpsSummarySchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const accountId = req.params.account_id;
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
