import { withOutcome } from './delivery.use-cases.js';
import { newDelivery } from './endpoint.use-cases.js';
import { bodyOf } from './event-mapping.js';
import type { DeliveryHandoff, WebhooksDeps } from './ports.js';
import type { Delivery, Endpoint, WebhookEvent } from './webhook.js';

type Deps = Pick<WebhooksDeps, 'endpoints' | 'deliveries' | 'clock' | 'newId' | 'settings'>;

/**
 * One delivery per enabled endpoint of the event's account subscribed to its type. Idempotent: a
 * redelivered record stores no second delivery (unique on endpoint and event id); its attempt, if
 * handed over, may be repeated, under the same webhook-id.
 */
export async function recordEvent(deps: Deps, event: WebhookEvent, handoff?: DeliveryHandoff): Promise<number> {
  return recordEvents(deps, [event], handoff);
}

/**
 * recordEvent for a batch of events: one endpoint lookup per account and type, and one write for
 * the batch's deliveries. With a handoff, as many as it has room for are attempted first, and
 * stored with their outcome (one insert, no update after the attempt); those whose attempt is still
 * under way after the handoff's wait are stored claimed for it, and the rest due now for any
 * sender. An event redelivered after a crash before the store is attempted again under the same
 * webhook-id (deliveryIdOf). Answers how many deliveries were new.
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
      return endpoints.map((e) => newDelivery(e, event.id, event.type, body, now));
    }),
  );
  // One delivery per id: an event published twice (at least once) can come twice in one batch,
  // and both copies would be attempted before the store drops the second.
  const deliveries = [...new Map(perEvent.flat().map((d) => [d.id, d] as const)).values()];
  if (deliveries.length === 0) return 0;
  // A copy of an event already attempted here (published twice) is stored only: the first copy's
  // delivery exists by then (a partition's batches come one after the other), so it adds nothing.
  const fresh = handoff?.attemptedLately ? deliveries.filter((d) => !handoff.attemptedLately!(d.id)) : deliveries;
  const handed = fresh.slice(0, Math.min(handoff?.room() ?? 0, fresh.length));
  const first = new Set(handed);
  const rest = deliveries.filter((d) => !first.has(d));
  if (handed.length === 0) return storeDue(deps, rest, handoff);

  const claim = { claimId: deps.newId(), heldUntil: new Date(now.getTime() + deps.settings.leaseMs) };
  const attempts = handoff!.attemptNew(handed, claim);
  const outcomes = await attempts.outcomes;
  const ended = handed.flatMap((d, i) => (outcomes[i] ? [withOutcome(d, outcomes[i])] : []));
  const underWay = handed.filter((_, i) => !outcomes[i]);
  try {
    const [stored, claimed] = await Promise.all([
      deps.deliveries.insertNew([...ended, ...rest]),
      deps.deliveries.insertNew(underWay, claim),
    ]);
    attempts.stored(true);
    if (rest.length > 0) handoff!.wake();
    return stored.length + claimed.length;
  } catch (err) {
    attempts.stored(false);
    throw err;
  }
}

async function storeDue(deps: Deps, deliveries: Delivery[], handoff?: DeliveryHandoff): Promise<number> {
  const stored = await deps.deliveries.insertNew(deliveries);
  if (stored.length > 0) handoff?.wake();
  return stored.length;
}
