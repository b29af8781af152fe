import { newDelivery } from './endpoint.use-cases.js';
import { bodyOf } from './event-mapping.js';
import type { WebhooksDeps } from './ports.js';
import type { WebhookEvent } from './webhook.js';

type Deps = Pick<WebhooksDeps, 'endpoints' | 'deliveries' | 'clock' | 'newId'>;

/**
 * One delivery per enabled endpoint of the event's account subscribed to its type. Idempotent: a
 * redelivered record finds its deliveries there already (unique on endpoint and event id).
 */
export async function recordEvent(deps: Deps, event: WebhookEvent): Promise<number> {
  if (!event.accountId) return 0;
  const endpoints = await deps.endpoints.subscribed(event.accountId, event.type);
  if (endpoints.length === 0) return 0;
  const now = deps.clock.now();
  const body = bodyOf(event);
  return deps.deliveries.insertNew(endpoints.map((e) => newDelivery(deps, e, event.id, event.type, body, now)));
}
