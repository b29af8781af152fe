import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import type { ResponsesPort } from './responses.port.js';
import { NpsParams, NpsQuery, NpsSummarySchema } from './responses.schemas.js';
import { npsView } from './responses.views.js';

/** GET /v1/flows/{flow_id}/nps for operators (feedbackctl responses nps). */
export const npsAdminRoutes =
  (deps: { surveys: Pick<ResponsesPort, 'getNpsSummary'>; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
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
        const { questions } = await deps.surveys.getNpsSummary({
          accountId: req.params.account_id,
          flowId: req.params.flow_id,
          channelId: req.query.channel_id ?? '',
          since: req.query.since ?? '',
          until: req.query.until ?? '',
        });
        return npsView(req.params.flow_id, questions);
      },
    );
  };
