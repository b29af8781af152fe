import { AppError, errors, nameBasedUuid, pageQueryOf, type Page, type PageRequest, type PageRule } from '@feedback/kit-core';
import { bodyOf } from './event-mapping.js';
import type { WebhooksDeps } from './ports.js';
import { newSecret } from './signature.js';
import { validDescription, validEvents, validUrl } from './validate-endpoint.js';
import { OPERATOR_DISABLED, TEST_EVENT, type Delivery, type Endpoint, type StoredSecret } from './webhook.js';

type Deps = Pick<WebhooksDeps, 'endpoints' | 'deliveries' | 'testSends' | 'cipher' | 'urlPolicy' | 'settings' | 'clock' | 'newId'>;

export interface EndpointInput {
  url: string;
  events: readonly string[];
  description: string;
}

export interface EndpointPatch {
  url?: string;
  events?: readonly string[];
  enabled?: boolean;
  description?: string;
}

/** Who asks for a change: the operator's `enabled` outranks the account's. */
export type Requester = 'account' | 'operator';

/** 409 with its own code: the account has as many endpoints as the deployment allows. */
export const TOO_MANY_ENDPOINTS_CODE = 13050;

const TEST_WINDOW_MS = 60_000;

const tooManyEndpoints = (max: number) =>
  new AppError(
    'conflict',
    'Too many webhook endpoints',
    { endpoints: `an account has at most ${max} webhook endpoints; delete one first` },
    TOO_MANY_ENDPOINTS_CODE,
  );

// A size out of range is clamped: the gateway's schema already refuses one.
const ENDPOINTS_PAGE: PageRule = { list: 'webhook_endpoints', default: 50, max: 200 };
const DELIVERIES_PAGE: PageRule = { list: 'webhook_deliveries', default: 50, max: 200 };

async function mustFind(deps: Pick<Deps, 'endpoints'>, accountId: string, id: string): Promise<Endpoint> {
  const endpoint = await deps.endpoints.find(accountId, id);
  if (!endpoint) throw errors.notFound('endpoint_id', id);
  return endpoint;
}

/** The secret is answered here and by rotateSecret only; it is stored sealed. */
export async function createEndpoint(deps: Deps, accountId: string, input: EndpointInput): Promise<{ endpoint: Endpoint; secret: string }> {
  const url = await validUrl(input.url, deps.urlPolicy);
  const events = validEvents(input.events);
  const description = validDescription(input.description);
  const max = deps.settings.maxEndpointsPerAccount;
  if ((await deps.endpoints.count(accountId)) >= max) throw tooManyEndpoints(max);
  const id = deps.newId();
  const now = deps.clock.now();
  const secret = newSecret();
  const endpoint: Endpoint = {
    id,
    accountId,
    url,
    events,
    description,
    enabled: true,
    disabledReason: '',
    failingSince: null,
    secrets: [{ sealed: deps.cipher.seal(secret, id), expiresAt: null }],
    createdAt: now,
    updatedAt: now,
  };
  await deps.endpoints.insert(endpoint);
  // Counted again after the insert: of creates racing past the check above, one that then sees
  // more than the limit takes itself back, so the account never keeps more than the limit.
  if ((await deps.endpoints.count(accountId)) > max) {
    await deps.endpoints.delete(accountId, id);
    throw tooManyEndpoints(max);
  }
  return { endpoint, secret };
}

export const getEndpoint = (deps: Pick<Deps, 'endpoints'>, accountId: string, id: string) => mustFind(deps, accountId, id);

export async function listEndpoints(deps: Pick<Deps, 'endpoints'>, accountId: string, page: PageRequest): Promise<Page<Endpoint>> {
  return deps.endpoints.list(accountId, pageQueryOf(page, ENDPOINTS_PAGE));
}

export async function updateEndpoint(
  deps: Deps,
  accountId: string,
  id: string,
  patch: EndpointPatch,
  by: Requester = 'account',
): Promise<Endpoint> {
  const changes: Parameters<Deps['endpoints']['update']>[2] = {};
  if (patch.url !== undefined) changes.url = await validUrl(patch.url, deps.urlPolicy);
  if (patch.events !== undefined) changes.events = validEvents(patch.events);
  if (patch.description !== undefined) changes.description = validDescription(patch.description);
  if (patch.enabled !== undefined) {
    changes.enabled = patch.enabled;
    // Enabled again: the failures before do not count toward the next disabling.
    if (patch.enabled) changes.failingSince = null;
    if (by === 'operator') changes.disabledReason = patch.enabled ? '' : OPERATOR_DISABLED;
    else {
      const current = await mustFind(deps, accountId, id);
      if (current.disabledReason === OPERATOR_DISABLED) {
        if (patch.enabled) throw operatorDisabled();
        // Turned off by its account as well: still the operator's to turn on.
        delete changes.enabled;
      } else changes.disabledReason = '';
    }
  }
  // The account's on/off holds only if the operator did not turn it off meanwhile.
  const guard = by === 'account' && changes.enabled !== undefined ? { unlessDisabledReason: OPERATOR_DISABLED } : undefined;
  const updated = await deps.endpoints.update(accountId, id, changes, deps.clock.now(), guard);
  if (updated) return updated;
  if (guard && (await mustFind(deps, accountId, id)).disabledReason === OPERATOR_DISABLED) throw operatorDisabled();
  throw errors.notFound('endpoint_id', id);
}

const operatorDisabled = () =>
  new AppError('permission_denied', undefined, { enabled: 'the operator disabled this endpoint; only the operator can enable it again' });

export async function deleteEndpoint(deps: Pick<Deps, 'endpoints' | 'deliveries'>, accountId: string, id: string): Promise<void> {
  if (!(await deps.endpoints.delete(accountId, id))) throw errors.notFound('endpoint_id', id);
  await deps.deliveries.deleteForEndpoint(id);
}

/** A new current secret; the previous current one signs beside it for the overlap, older ones are dropped. */
export async function rotateSecret(deps: Deps, accountId: string, id: string): Promise<{ endpoint: Endpoint; secret: string }> {
  const endpoint = await mustFind(deps, accountId, id);
  const now = deps.clock.now();
  const secret = newSecret();
  const previous = endpoint.secrets.find((s) => s.expiresAt === null);
  const secrets: StoredSecret[] = [{ sealed: deps.cipher.seal(secret, id), expiresAt: null }];
  if (previous) secrets.push({ sealed: previous.sealed, expiresAt: new Date(now.getTime() + deps.settings.rotationOverlapMs) });
  const updated = await deps.endpoints.update(accountId, id, { secrets }, now);
  if (!updated) throw errors.notFound('endpoint_id', id);
  return { endpoint: updated, secret };
}

/** The secrets that sign at `now`: the current one first, then a rotated-out one still in its overlap. */
export function signingSecrets(deps: Pick<Deps, 'cipher'>, endpoint: Endpoint, now: Date): string[] {
  return endpoint.secrets
    .filter((s) => s.expiresAt === null || s.expiresAt > now)
    .sort((a, b) => (a.expiresAt === null ? -1 : b.expiresAt === null ? 1 : 0))
    .map((s) => deps.cipher.open(s.sealed, endpoint.id));
}

/**
 * A test event, at most `testSendsPerMinute` per account per clock minute: past it, 429 whose
 * `retry_after` field (seconds to the window's end) the gateway turns into Retry-After.
 */
export async function sendTestEvent(deps: Deps, accountId: string, id: string): Promise<Delivery> {
  const endpoint = await mustFind(deps, accountId, id);
  const now = deps.clock.now();
  const windowStart = Math.floor(now.getTime() / TEST_WINDOW_MS) * TEST_WINDOW_MS;
  const windowEnd = windowStart + TEST_WINDOW_MS;
  const limit = deps.settings.testSendsPerMinute;
  if ((await deps.testSends.hit(accountId, new Date(windowStart), new Date(windowEnd))) > limit)
    throw new AppError('rate_limited', undefined, {
      test: `at most ${limit} test events a minute per account`,
      retry_after: String(Math.max(1, Math.ceil((windowEnd - now.getTime()) / 1000))),
    });
  const eventId = `webhook.test:${deps.newId()}`;
  const delivery = newDelivery(
    endpoint,
    eventId,
    TEST_EVENT,
    bodyOf({ id: eventId, accountId, type: TEST_EVENT, timestamp: now, data: { endpoint_id: endpoint.id } }),
    now,
  );
  await deps.deliveries.insertNew([delivery]);
  return delivery;
}

/**
 * A delivery's id, the same whenever the event comes: an event redelivered after a crash between
 * its first attempt and the store makes the same delivery, so a receiver sees the same webhook-id.
 */
export const deliveryIdOf = (endpointId: string, eventId: string): string =>
  nameBasedUuid(`webhook-delivery\u0000${endpointId}\u0000${eventId}`);

export function newDelivery(endpoint: Endpoint, eventId: string, eventType: string, body: string, now: Date): Delivery {
  const id = deliveryIdOf(endpoint.id, eventId);
  return {
    id,
    accountId: endpoint.accountId,
    endpointId: endpoint.id,
    eventId,
    eventType,
    webhookId: `msg_${id.replaceAll('-', '')}`,
    body,
    status: 'pending',
    attempts: [],
    retryIndex: 0,
    nextAttemptAt: now,
    createdAt: now,
    note: '',
  };
}

export async function listDeliveries(
  deps: Pick<Deps, 'endpoints' | 'deliveries'>,
  accountId: string,
  endpointId: string,
  page: PageRequest,
): Promise<Page<Delivery>> {
  await mustFind(deps, accountId, endpointId);
  return deps.deliveries.list(accountId, endpointId, pageQueryOf(page, DELIVERIES_PAGE));
}

export async function replayDelivery(deps: Deps, accountId: string, endpointId: string, deliveryId: string): Promise<Delivery> {
  await mustFind(deps, accountId, endpointId);
  const replayed = await deps.deliveries.replay(accountId, endpointId, deliveryId, deps.clock.now());
  if (!replayed) throw errors.notFound('delivery_id', deliveryId);
  return replayed;
}
