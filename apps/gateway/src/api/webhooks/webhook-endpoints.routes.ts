import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { AppError } from '@feedback/kit-core';
import type { FastifyReply } from 'fastify';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses, pageRequest } from '../../http/common.schemas.js';
import {
  CreateEndpointBody,
  DeliveriesPageSchema,
  DeliveryAnswerSchema,
  DeliveryParams,
  EndpointAnswerSchema,
  EndpointParams,
  EndpointsPageSchema,
  EndpointWithSecretSchema,
  PageQuery,
  UpdateEndpointBody,
} from './webhooks.schemas.js';
import type { WebhooksPort } from './webhooks.port.js';
import { deliveriesPageView, deliveryView, endpointsPageView, endpointView } from './webhooks.views.js';

/**
 * The webhooks service's 429 names the seconds to wait in its `retry_after` field: a header for
 * the caller (as the gateway's other limits answer), not a field at fault.
 */
function retryAfterOf(err: unknown, reply: FastifyReply): unknown {
  if (!(err instanceof AppError) || err.kind !== 'rate_limited' || err.fields.retry_after === undefined) return err;
  const { retry_after: seconds, ...fields } = err.fields;
  reply.header('retry-after', seconds);
  return new AppError(err.kind, err.message, fields, err.code);
}

export interface WebhookEndpointsRoutesDeps {
  webhooks: WebhooksPort;
  auth: Authenticator;
}

/** The account's webhook endpoints and their delivery logs (docs/api.md "Webhooks"). */
export const webhookEndpointsRoutes =
  (deps: WebhookEndpointsRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const onRequest = [deps.auth(['api'])];
    const common = { tags: ['webhooks'], security: [{ apiToken: [] }] };
    const account = (req: Parameters<typeof principalOf>[0]) => principalOf(req).accountId;

    app.post(
      '/v1/webhook_endpoints',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Register a webhook endpoint',
          operationId: 'createWebhookEndpoint',
          description:
            'Answers 201 with the endpoint and its signing `secret`, shown only here. Deliveries follow Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature). A URL the deployment refuses (plain http, a private or metadata address, a name resolving to one) answers 400 naming `url`. An account has at most WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT endpoints (20 by default): past it, 409 / 13050.',
          body: CreateEndpointBody,
          response: { 201: EndpointWithSecretSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (req, reply) => {
        const res = await deps.webhooks.createEndpoint({
          accountId: account(req),
          url: req.body.url,
          events: req.body.events,
          description: req.body.description ?? '',
        });
        return reply.status(201).send({ endpoint: endpointView(res.endpoint!), secret: res.secret });
      },
    );

    app.get(
      '/v1/webhook_endpoints',
      {
        onRequest,
        schema: {
          ...common,
          summary: "List the account's webhook endpoints, newest first",
          operationId: 'listWebhookEndpoints',
          description: 'A page at a time (`page_size`, then `page_token` = the previous `next_page_token`, null on the last page).',
          querystring: PageQuery,
          response: { 200: EndpointsPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) => {
        const page = await deps.webhooks.listEndpoints({
          accountId: account(req),
          ...pageRequest(req.query),
        });
        return endpointsPageView(page);
      },
    );

    app.get(
      '/v1/webhook_endpoints/:endpoint_id',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'One webhook endpoint',
          operationId: 'getWebhookEndpoint',
          description: "Another account's or an unknown id answers 404 (13002) naming `endpoint_id`.",
          params: EndpointParams,
          response: { 200: EndpointAnswerSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const res = await deps.webhooks.getEndpoint({ accountId: account(req), endpointId: req.params.endpoint_id });
        return { endpoint: endpointView(res.endpoint!) };
      },
    );

    app.patch(
      '/v1/webhook_endpoints/:endpoint_id',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Change a webhook endpoint',
          operationId: 'updateWebhookEndpoint',
          description:
            'Only the fields given change. `enabled: true` turns on an endpoint the service disabled (410, failing for a day); one the operator disabled (`disabled_reason: "operator"`) only the operator turns on: 403 / 13013 naming `enabled`.',
          params: EndpointParams,
          body: UpdateEndpointBody,
          response: { 200: EndpointAnswerSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const b = req.body;
        const res = await deps.webhooks.updateEndpoint({
          accountId: account(req),
          endpointId: req.params.endpoint_id,
          ...(b.url !== undefined ? { url: b.url } : {}),
          ...(b.events !== undefined ? { events: { types: b.events } } : {}),
          ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
          ...(b.description !== undefined ? { description: b.description } : {}),
          byOperator: false,
        });
        return { endpoint: endpointView(res.endpoint!) };
      },
    );

    app.delete(
      '/v1/webhook_endpoints/:endpoint_id',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Remove a webhook endpoint and its delivery log',
          operationId: 'deleteWebhookEndpoint',
          description: 'Answers 204; deliveries not yet made are dropped.',
          params: EndpointParams,
          response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        await deps.webhooks.deleteEndpoint({ accountId: account(req), endpointId: req.params.endpoint_id });
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/v1/webhook_endpoints/:endpoint_id/secret/rotate',
      {
        onRequest,
        schema: {
          ...common,
          summary: "Rotate an endpoint's signing secret",
          operationId: 'rotateWebhookSecret',
          description:
            'Answers the new secret, shown only here. For 24 hours every delivery is signed with both (two `v1,` signatures in webhook-signature), so the receiver can switch without losing one.',
          params: EndpointParams,
          response: { 200: EndpointWithSecretSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const res = await deps.webhooks.rotateSecret({ accountId: account(req), endpointId: req.params.endpoint_id });
        return { endpoint: endpointView(res.endpoint!), secret: res.secret };
      },
    );

    app.post(
      '/v1/webhook_endpoints/:endpoint_id/test',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Send a webhook.test event to the endpoint',
          operationId: 'testWebhookEndpoint',
          description:
            'Answers 202 with the queued delivery; its attempts show in the delivery log. At most WEBHOOKS_TEST_SENDS_PER_MINUTE (10 by default) per account per clock minute: past it, 429 / 13005 with Retry-After.',
          params: EndpointParams,
          response: { 202: DeliveryAnswerSchema, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (req, reply) => {
        const res = await deps.webhooks
          .sendTestEvent({ accountId: account(req), endpointId: req.params.endpoint_id })
          .catch((err: unknown) => {
            throw retryAfterOf(err, reply);
          });
        return reply.status(202).send({ delivery: deliveryView(res.delivery!) });
      },
    );

    app.get(
      '/v1/webhook_endpoints/:endpoint_id/deliveries',
      {
        onRequest,
        schema: {
          ...common,
          summary: "The endpoint's delivery log, newest first",
          operationId: 'listWebhookDeliveries',
          description:
            'Each delivery with its attempts (time, status code or error, latency, the first 1 KiB of the answer). A page at a time (`page_size`, `page_token`).',
          params: EndpointParams,
          querystring: PageQuery,
          response: { 200: DeliveriesPageSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const page = await deps.webhooks.listDeliveries({
          accountId: account(req),
          endpointId: req.params.endpoint_id,
          ...pageRequest(req.query),
        });
        return deliveriesPageView(page);
      },
    );

    app.post(
      '/v1/webhook_endpoints/:endpoint_id/deliveries/:delivery_id/replay',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Send a delivery again',
          operationId: 'replayWebhookDelivery',
          description: 'Answers 202; the delivery is due at once with the same webhook-id, and retried from the start of the schedule.',
          params: DeliveryParams,
          response: { 202: DeliveryAnswerSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        const res = await deps.webhooks.replayDelivery({
          accountId: account(req),
          endpointId: req.params.endpoint_id,
          deliveryId: req.params.delivery_id,
        });
        return reply.status(202).send({ delivery: deliveryView(res.delivery!) });
      },
    );
  };
