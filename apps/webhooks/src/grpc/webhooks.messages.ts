import type {
  Delivery as DeliveryMessage,
  Endpoint as EndpointMessage,
  UpdateEndpointRequest,
} from '@feedback/proto/feedback/webhooks/v1/webhooks';
import type { EndpointPatch, Requester } from '../domain/endpoint.use-cases.js';
import type { Delivery, Endpoint } from '../domain/webhook.js';

/** proto <-> domain for the webhooks service: the handlers call use cases and these only. */
export function endpointMessage(e: Endpoint, now: Date): EndpointMessage {
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

export function deliveryMessage(d: Delivery): DeliveryMessage {
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

/** An update's fields: only those the request sets (an unset field is left as it is). */
export const endpointPatchOf = (req: UpdateEndpointRequest): EndpointPatch => ({
  ...(req.url !== undefined ? { url: req.url } : {}),
  ...(req.events !== undefined ? { events: req.events.types } : {}),
  ...(req.enabled !== undefined ? { enabled: req.enabled } : {}),
  ...(req.description !== undefined ? { description: req.description } : {}),
});

export const requesterOf = (req: Pick<UpdateEndpointRequest, 'byOperator'>): Requester => (req.byOperator ? 'operator' : 'account');
