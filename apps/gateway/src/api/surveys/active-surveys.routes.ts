import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import type { NodeRepository } from '../../accounts/domain/ports.js';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses } from '../../http/common.schemas.js';
import { requireOwnNode } from './node-access.js';
import type { SurveysPort } from './surveys.port.js';
import { type ActiveSurveyListSchema, ActiveSurveysBody, NodeParams } from './surveys.schemas.js';
import { activeSurveysView } from './surveys.views.js';

/** docs/api.md "Active surveys": a customer's active surveys on one node of the caller's account. */
export const activeSurveysRoutes =
  (deps: {
    surveys: Pick<SurveysPort, 'listActiveSurveys'>;
    nodes: Pick<NodeRepository, 'findById'>;
    auth: Authenticator;
    formatDate: (at: string) => string;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/external/v1/nodes/:node_id/active_surveys',
      {
        onRequest: deps.auth(['integration']),
        schema: {
          tags: ['surveys'],
          summary: "List a customer's active surveys",
          operationId: 'listActiveSurveys',
          description:
            'At least one of customer.phone_number, customer.email, customer.external_id (400 naming them otherwise); several are combined with AND, and customer.schema.TCKN must match too when given. response_channel_id limits the list to that channel. Newest activation first. A node of another account answers 404 like an unknown one.',
          security: [{ integrationToken: [] }],
          params: NodeParams,
          body: ActiveSurveysBody,
          response: {
            200: Type.Unsafe<Static<typeof ActiveSurveyListSchema>>({ $ref: 'ActiveSurveyList#' }),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (req) => {
        const { accountId } = principalOf(req);
        await requireOwnNode(deps.nodes, accountId, req.params.node_id);
        const c = req.body.customer ?? {};
        const { surveys } = await deps.surveys.listActiveSurveys({
          accountId,
          nodeId: req.params.node_id,
          phoneNumber: c.phone_number ?? '',
          email: c.email ?? '',
          externalId: c.external_id ?? '',
          tckn: c.schema?.TCKN ?? '',
          responseChannelId: req.body.response_channel_id ?? '',
        });
        return activeSurveysView(surveys, deps.formatDate);
      },
    );
  };
