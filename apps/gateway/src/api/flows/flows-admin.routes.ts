import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import type { FlowsPort } from './flows.port.js';
import { FlowDefinitionSchema } from './flows.schemas.js';
import { flowView } from './flows.views.js';

/** POST /admin/v1/accounts/{account_id}/flows (docs/api.md "Admin API"). */
export const flowsAdminRoutes =
  (deps: { flows: Pick<FlowsPort, 'createFlow'>; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/accounts/:account_id/flows',
      {
        schema: {
          tags: ['admin'],
          security: [{ adminToken: [] }],
          summary: 'Create a flow',
          operationId: 'createFlow',
          description:
            'Styles: single_choice, multiple_choice, dropdown (2+ options); nps, csat, ces, star_rating, emoji_rating, yes_no (options optional); short_text, long_text, email, phone, number, date, statement (no options).',
          params: AccountParams,
          body: FlowDefinitionSchema,
          response: { 201: Type.Unsafe({ $ref: 'Flow#' }), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        const { flow } = await deps.flows.createFlow({
          accountId: req.params.account_id,
          name: req.body.name,
          questions: req.body.questions.map((q) => ({ ...q, options: q.options ?? [] })),
        });
        return reply.status(201).send(flowView(flow));
      },
    );
  };
