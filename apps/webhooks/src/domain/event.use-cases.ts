import { newDelivery } from './endpoint.use-cases.js';
import { bodyOf } from './event-mapping.js';
import type { WebhooksDeps } from './ports.js';
import type { Endpoint, WebhookEvent } from './webhook.js';

type Deps = Pick<WebhooksDeps, 'endpoints' | 'deliveries' | 'clock' | 'newId'>;

/**
 * One delivery per enabled endpoint of the event's account subscribed to its type. Idempotent: a
 * redelivered record finds its deliveries there already (unique on endpoint and event id).
 */
export function recordEvent(deps: Deps, event: WebhookEvent): Promise<number> {
  return recordEvents(deps, [event]);
}

/**
 * recordEvent for a batch of events: one endpoint lookup per account and type, and one write for
 * every delivery of the batch. Answers how many deliveries were new.
 */
export async function recordEvents(deps: Deps, events: WebhookEvent[]): Promise<number> {
  const lookups = new Map<string, Promise<Endpoint[]>>();
  const subscribed = (accountId: string, type: string) => {
    const key = `${accountId}\u0000${type}`;
    let found = lookups.get(key);
    if (!found) lookups.set(key, (found = deps.endpoints.subscribed(accountId, type)));
    return found;
  };
  const now = deps.clock.now();
  const perEvent = await Promise.all(
    events.map(async (event) => {
      if (!event.accountId) return [];
      const endpoints = await subscribed(event.accountId, event.type);
      if (endpoints.length === 0) return [];
      const body = bodyOf(event);
      return endpoints.map((e) => newDelivery(deps, e, event.id, event.type, body, now));
    }),
  );
  const deliveries = perEvent.flat();
  return deliveries.length === 0 ? 0 : deps.deliveries.insertNew(deliveries);
}
