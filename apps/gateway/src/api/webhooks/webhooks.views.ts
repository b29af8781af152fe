import { isoWithOffset } from '@feedback/kit-core';
import type { Delivery, Endpoint, ListDeliveriesResponse, ListEndpointsResponse } from '@feedback/proto/feedback/webhooks/v1/webhooks';

const date = (iso: string) => (iso ? isoWithOffset(new Date(iso)) : null);

export function endpointView(e: Endpoint) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    enabled: e.enabled,
    disabled_reason: e.disabledReason || null,
    previous_secret_expires_at: date(e.previousSecretExpiresAt),
    created_at: date(e.createdAt)!,
    updated_at: date(e.updatedAt)!,
  };
}

export function deliveryView(d: Delivery) {
  return {
    id: d.id,
    webhook_id: d.webhookId,
    event_type: d.eventType,
    event_id: d.eventId,
    status: d.status,
    next_attempt_at: date(d.nextAttemptAt),
    created_at: date(d.createdAt)!,
    note: d.note || null,
    attempts: d.attempts.map((a) => ({
      at: date(a.at)!,
      status_code: a.statusCode || null,
      error: a.error || null,
      latency_ms: a.latencyMs,
      response_body: a.responseBody,
    })),
  };
}

/** A page of endpoints as the API and the admin API list them. */
export const endpointsPageView = (page: ListEndpointsResponse) => ({
  data: page.endpoints.map(endpointView),
  next_page_token: page.nextPageToken || null,
});

/** A page of an endpoint's delivery log as the API and the admin API list it. */
export const deliveriesPageView = (page: ListDeliveriesResponse) => ({
  data: page.deliveries.map(deliveryView),
  next_page_token: page.nextPageToken || null,
});
