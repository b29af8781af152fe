import { unary } from '@feedback/kit-grpc';
import type { WebhookServiceServer } from '@feedback/proto/feedback/webhooks/v1/webhooks';
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
import type { Endpoint } from '../domain/webhook.js';
import { deliveryMessage, endpointMessage, endpointPatchOf, requesterOf } from './webhooks.messages.js';

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. */
export function webhooksHandlers(deps: WebhooksDeps): WebhookServiceServer {
  const view = (e: Endpoint) => endpointMessage(e, deps.clock.now());
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
      endpoint: view(await updateEndpoint(deps, req.accountId, req.endpointId, endpointPatchOf(req), requesterOf(req))),
    })),
    deleteEndpoint: unary(async (req) => {
      await deleteEndpoint(deps, req.accountId, req.endpointId);
      return {};
    }),
    rotateSecret: unary(async (req) => {
      const { endpoint, secret } = await rotateSecret(deps, req.accountId, req.endpointId);
      return { endpoint: view(endpoint), secret };
    }),
    sendTestEvent: unary(async (req) => ({ delivery: deliveryMessage(await sendTestEvent(deps, req.accountId, req.endpointId)) })),
    listDeliveries: unary(async (req) => {
      const page = await listDeliveries(deps, req.accountId, req.endpointId, req);
      return { deliveries: page.items.map(deliveryMessage), nextPageToken: page.nextPageToken };
    }),
    replayDelivery: unary(async (req) => ({
      delivery: deliveryMessage(await replayDelivery(deps, req.accountId, req.endpointId, req.deliveryId)),
    })),
  };
}
