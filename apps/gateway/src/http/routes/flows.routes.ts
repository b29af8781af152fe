import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Flow, GetFlowRequest, GetFlowResponse } from '@feedback/proto/feedback/flow/v1/flow';
import type { Authenticator } from '../auth.js';
import { principalOf } from '../auth.js';
import { errorResponses } from '../schemas/common.schemas.js';

export interface FlowsPort {
  getFlow(req: GetFlowRequest): Promise<GetFlowResponse>;
}

/** Spec 2.7: exactly id, name, questions (no account or timestamps). */
export function flowView(flow: Flow | undefined) {
  if (!flow) throw new Error('flow service answered without a flow');
  return {
    id: flow.id,
    name: flow.name,
    questions: flow.questions.map((q) => ({
      id: q.id,
      key: q.key,
      body: q.body,
      style: q.style,
      options: q.options.map((o) => ({ id: o.id, key: o.key, body: o.body })),
    })),
  };
}

export const flowsRoutes =
  (deps: { flows: FlowsPort; auth: Authenticator }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/external/v1/flows/:flowId',
      {
        onRequest: deps.auth(['api', 'integration']),
        schema: {
          tags: ['flows'],
          summary: 'Show flow details',
          description: 'One flow of the caller\'s account with its questions and answer options. Either token kind works.',
          security: [{ integrationToken: [] }, { apiToken: [] }],
          params: Type.Object({ flowId: Type.String({ minLength: 1, maxLength: 100 }) }),
          response: { 200: Type.Unsafe({ $ref: 'Flow#' }), ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        const { flow } = await deps.flows.getFlow({ accountId: principalOf(req).accountId, flowId: req.params.flowId });
        return flowView(flow);
      },
    );
  };

