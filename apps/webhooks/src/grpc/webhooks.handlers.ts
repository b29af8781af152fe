import { unary } from '@feedback/kit-grpc';
import type {
  Delivery as DeliveryMessage,
  Endpoint as EndpointMessage,
  WebhookServiceServer,
} from '@feedback/proto/feedback/webhooks/v1/webhooks';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  replayDelivery,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
} from '../domain/endpoint.use-cases.js';
import type { WebhooksDeps } from '../domain/ports.js';
import type { Delivery, Endpoint } from '../domain/webhook.js';

function toEndpointMessage(e: Endpoint, now: Date): EndpointMessage {
  const previous = e.secrets.find((s) => s.expiresAt !== null && s.expiresAt > now);
  return {
    id: e.id,
    accountId: e.accountId,
    url: e.url,
    events: e.events,
    description: e.description,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    previousSecretExpiresAt: previous?.expiresAt?.toISOString() ?? '',
  };
}

function toDeliveryMessage(d: Delivery): DeliveryMessage {
  return {
    id: d.id,
    endpointId: d.endpointId,
    webhookId: d.webhookId,
    eventType: d.eventType,
    eventId: d.eventId,
    status: d.status,
    attempts: d.attempts.map((a) => ({
      at: a.at.toISOString(),
      statusCode: a.statusCode,
      error: a.error,
      latencyMs: a.latencyMs,
      responseBody: a.responseBody,
    })),
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? '',
    createdAt: d.createdAt.toISOString(),
    note: d.note,
  };
}

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. */
export function webhooksHandlers(deps: WebhooksDeps): WebhookServiceServer {
  const view = (e: Endpoint) => toEndpointMessage(e, deps.clock.now());
  return {
    createEndpoint: unary(async (req) => {
      const { endpoint, secret } = await createEndpoint(deps, req.accountId, {
        url: req.url,
        events: req.events,
        description: req.description,
      });
      return { endpoint: view(endpoint), secret };
    }),
    getEndpoint: unary(async (req) => ({ endpoint: view(await getEndpoint(deps, req.accountId, req.endpointId)) })),
    listEndpoints: unary(async (req) => {
      const page = await listEndpoints(deps, req.accountId, req);
      return { endpoints: page.items.map(view), nextPageToken: page.nextPageToken };
    }),
    updateEndpoint: unary(async (req) => ({
      endpoint: view(
        await updateEndpoint(
          deps,
          req.accountId,
          req.endpointId,
          {
            ...(req.url !== undefined ? { url: req.url } : {}),
            ...(req.events !== undefined ? { events: req.events.types } : {}),
            ...(req.enabled !== undefined ? { enabled: req.enabled } : {}),
            ...(req.description !== undefined ? { description: req.description } : {}),
          },
          req.byOperator ? 'operator' : 'account',
        ),
      ),
    })),
    deleteEndpoint: unary(async (req) => {
      await deleteEndpoint(deps, req.accountId, req.endpointId);
      return {};
    }),
    rotateSecret: unary(async (req) => {
      const { endpoint, secret } = await rotateSecret(deps, req.accountId, req.endpointId);
      return { endpoint: view(endpoint), secret };
    }),
    sendTestEvent: unary(async (req) => ({ delivery: toDeliveryMessage(await sendTestEvent(deps, req.accountId, req.endpointId)) })),
    listDeliveries: unary(async (req) => {
      const page = await listDeliveries(deps, req.accountId, req.endpointId, req);
      return { deliveries: page.items.map(toDeliveryMessage), nextPageToken: page.nextPageToken };
    }),
    replayDelivery: unary(async (req) => ({
      delivery: toDeliveryMessage(await replayDelivery(deps, req.accountId, req.endpointId, req.deliveryId)),
    })),
  };
}
