import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses, pageRequest } from '../../http/common.schemas.js';
import {
  DeliveriesPageSchema,
  DeliveryAnswerSchema,
  DeliveryParams,
  EndpointAnswerSchema,
  EndpointParams,
  EndpointsPageSchema,
  PageQuery,
} from './webhooks.schemas.js';
import type { WebhooksPort } from './webhooks.port.js';
import { deliveriesPageView, deliveryView, endpointsPageView, endpointView } from './webhooks.views.js';

/**
 * What an operator needs of an account's webhooks (feedbackctl webhooks ...): its endpoints, an
 * endpoint's delivery log, turning an endpoint the service disabled on again (or one off: the
 * operator's off outranks the account's on), and a replay. Creating endpoints and their secrets stays with the account's own API token.
 */
export const webhooksAdminRoutes =
  (deps: { webhooks: WebhooksPort; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };
    const withEndpoint = Type.Object({ ...AccountParams.properties, ...EndpointParams.properties });

    app.get(
      '/accounts/:account_id/webhook_endpoints',
      {
        schema: {
          ...common,
          summary: "An account's webhook endpoints, newest first",
          operationId: 'listAccountWebhookEndpoints',
          description: 'As GET /v1/webhook_endpoints with the account’s API token.',
          params: AccountParams,
          querystring: PageQuery,
          response: { 200: EndpointsPageSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const page = await deps.webhooks.listEndpoints({
          accountId: req.params.account_id,
          ...pageRequest(req.query),
        });
        return endpointsPageView(page);
      },
    );

    app.patch(
      '/accounts/:account_id/webhook_endpoints/:endpoint_id',
      {
        schema: {
          ...common,
          summary: 'Turn an account’s webhook endpoint on or off',
          operationId: 'setAccountWebhookEndpointEnabled',
          description:
            '`enabled: false` disables the endpoint with `disabled_reason: "operator"`: its account cannot turn it on again (403). `enabled: true` turns on an endpoint the operator or the service disabled (410, failing for a day); its disabled reason is cleared.',
          params: withEndpoint,
          body: Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false }),
          response: { 200: EndpointAnswerSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const res = await deps.webhooks.updateEndpoint({
          accountId: req.params.account_id,
          endpointId: req.params.endpoint_id,
          enabled: req.body.enabled,
          byOperator: true,
        });
        return { endpoint: endpointView(res.endpoint!) };
      },
    );

    app.get(
      '/accounts/:account_id/webhook_endpoints/:endpoint_id/deliveries',
      {
        schema: {
          ...common,
          summary: "A webhook endpoint's delivery log, newest first",
          operationId: 'listAccountWebhookDeliveries',
          description: 'As GET /v1/webhook_endpoints/{endpoint_id}/deliveries with the account’s API token.',
          params: withEndpoint,
          querystring: PageQuery,
          response: { 200: DeliveriesPageSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const page = await deps.webhooks.listDeliveries({
          accountId: req.params.account_id,
          endpointId: req.params.endpoint_id,
          ...pageRequest(req.query),
        });
        return deliveriesPageView(page);
      },
    );

    app.post(
      '/accounts/:account_id/webhook_endpoints/:endpoint_id/deliveries/:delivery_id/replay',
      {
        schema: {
          ...common,
          summary: 'Send a webhook delivery again',
          operationId: 'replayAccountWebhookDelivery',
          description: 'As POST /v1/webhook_endpoints/{endpoint_id}/deliveries/{delivery_id}/replay: the same webhook-id, due at once.',
          params: Type.Object({ ...AccountParams.properties, ...DeliveryParams.properties }),
          response: { 202: DeliveryAnswerSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        const res = await deps.webhooks.replayDelivery({
          accountId: req.params.account_id,
          endpointId: req.params.endpoint_id,
          deliveryId: req.params.delivery_id,
        });
        return reply.status(202).send({ delivery: deliveryView(res.delivery!) });
      },
    );
  };
