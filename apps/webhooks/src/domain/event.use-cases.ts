import { newDelivery } from './endpoint.use-cases.js';
import { bodyOf } from './event-mapping.js';
import type { DeliveryHandoff, WebhooksDeps } from './ports.js';
import type { Endpoint, WebhookEvent } from './webhook.js';

type Deps = Pick<WebhooksDeps, 'endpoints' | 'deliveries' | 'clock' | 'newId' | 'settings'>;

/**
 * One delivery per enabled endpoint of the event's account subscribed to its type. Idempotent: a
 * redelivered record finds its deliveries there already (unique on endpoint and event id).
 */
export async function recordEvent(deps: Deps, event: WebhookEvent, handoff?: DeliveryHandoff): Promise<number> {
  return recordEvents(deps, [event], handoff);
}

/**
 * recordEvent for a batch of events: one endpoint lookup per account and type, one write for the
 * batch's deliveries. With a handoff, as many as it has room for are stored claimed for it and
 * handed over; the rest are stored due now for any sender. Answers how many deliveries were new.
 */
export async function recordEvents(deps: Deps, events: WebhookEvent[], handoff?: DeliveryHandoff): Promise<number> {
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
  if (deliveries.length === 0) return 0;
  const handed = Math.min(handoff?.room() ?? 0, deliveries.length);
  const claim = { claimId: deps.newId(), heldUntil: new Date(now.getTime() + deps.settings.leaseMs) };
  const [claimed, unclaimed] = await Promise.all([
    handed > 0 ? deps.deliveries.insertNew(deliveries.slice(0, handed), claim) : [],
    handed < deliveries.length ? deps.deliveries.insertNew(deliveries.slice(handed)) : [],
  ]);
  // A redelivered event's deliveries are not new: their first attempt is someone else's.
  if (claimed.length > 0) handoff!.take({ ...claim, deliveries: claimed });
  if (unclaimed.length > 0) handoff?.wake();
  return claimed.length + unclaimed.length;
}
