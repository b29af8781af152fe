import { signingSecrets } from './endpoint.use-cases.js';
import type { AttemptOutcome, Claim, SendResult, WebhookSettings, WebhooksDeps } from './ports.js';
import { retryDelayMs } from './retry-schedule.js';
import { webhookHeaders } from './signature.js';
import type { Attempt, Delivery } from './webhook.js';

type Deps = Pick<WebhooksDeps, 'endpoints' | 'deliveries' | 'cipher' | 'transport' | 'settings' | 'clock' | 'random' | 'logger' | 'newId'>;

const isSuccess = (code: number) => code >= 200 && code < 300;

/** What one attempt's result means for its delivery, before the endpoint's own state is looked at. */
export function outcomeOf(
  delivery: Pick<Delivery, 'retryIndex'>,
  attempt: Attempt,
  settings: Pick<WebhookSettings, 'retrySchedule'>,
  random: number,
): AttemptOutcome & { endpoint: 'healthy' | 'gone' | 'failing' } {
  if (isSuccess(attempt.statusCode))
    return { attempt, status: 'succeeded', nextAttemptAt: null, retryIndex: delivery.retryIndex, endpoint: 'healthy' };
  if (attempt.statusCode === 410)
    return {
      attempt,
      status: 'failed',
      nextAttemptAt: null,
      retryIndex: delivery.retryIndex,
      endpoint: 'gone',
      note: 'endpoint disabled: the receiver answered 410 Gone',
    };
  const delay = retryDelayMs(settings.retrySchedule, delivery.retryIndex, random);
  if (delay === null)
    return {
      attempt,
      status: 'failed',
      nextAttemptAt: null,
      retryIndex: delivery.retryIndex,
      endpoint: 'failing',
      note: 'retry schedule used up',
    };
  return {
    attempt,
    status: 'pending',
    nextAttemptAt: new Date(attempt.at.getTime() + delay),
    retryIndex: delivery.retryIndex + 1,
    endpoint: 'failing',
  };
}

/** Takes up to `limit` due deliveries under one claim id of its own (none taken: an empty list). */
export async function claimDue(deps: Pick<Deps, 'deliveries' | 'clock' | 'settings' | 'newId'>, limit: number): Promise<Claim> {
  const claimId = deps.newId();
  const now = deps.clock.now();
  const deliveries = await deps.deliveries.claimDue(now, deps.settings.leaseMs, claimId, limit);
  return { claimId, deliveries, heldUntil: new Date(now.getTime() + deps.settings.leaseMs) };
}

/**
 * One attempt of a delivery, and what it means for its endpoint (failing, healthy, disabled); the
 * delivery's own outcome is answered, not written. A delivery whose endpoint is gone or disabled
 * ends without an attempt.
 */
export async function tryDelivery(deps: Deps, delivery: Delivery): Promise<AttemptOutcome> {
  const endpoint = await deps.endpoints.findById(delivery.endpointId);
  if (!endpoint || !endpoint.enabled) {
    const note = endpoint
      ? `not sent: endpoint disabled${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''}`
      : 'not sent: endpoint deleted';
    return { attempt: null, status: 'failed', nextAttemptAt: null, retryIndex: delivery.retryIndex, note };
  }
  const at = deps.clock.now();
  const headers = webhookHeaders(signingSecrets(deps, endpoint, at), delivery.webhookId, at, delivery.body);
  const result: SendResult = await deps.transport.send(endpoint.url, headers, delivery.body);
  const { endpoint: effect, ...outcome } = outcomeOf(delivery, { at, ...result }, deps.settings, deps.random());
  if (effect === 'healthy') {
    if (endpoint.failingSince) await deps.endpoints.markHealthy(endpoint.id);
  } else if (effect === 'gone') {
    await deps.endpoints.disable(endpoint.id, 'the receiver answered 410 Gone', at);
  } else {
    const since = await deps.endpoints.markFailing(endpoint.id, at);
    if (at.getTime() - since.getTime() >= deps.settings.disableAfterMs) {
      const reason = `failing continuously since ${since.toISOString()}`;
      await deps.endpoints.disable(endpoint.id, reason, at);
      outcome.status = 'failed';
      outcome.nextAttemptAt = null;
      outcome.note = `endpoint disabled: ${reason}`;
    }
  }
  return outcome;
}

/** A delivery not stored yet as its outcome leaves it: stored so, it needs no write after its attempt. */
export function withOutcome(delivery: Delivery, o: AttemptOutcome): Delivery {
  return {
    ...delivery,
    status: o.status,
    nextAttemptAt: o.nextAttemptAt,
    retryIndex: o.retryIndex,
    attempts: o.attempt ? [...delivery.attempts, o.attempt] : delivery.attempts,
    note: o.note ?? delivery.note,
  };
}

/**
 * One attempt of a stored, claimed delivery; its outcome is written only if `claimId` still holds
 * it (a replay meanwhile wins).
 */
export async function attemptDelivery(deps: Deps, delivery: Delivery, claimId: string): Promise<void> {
  const outcome = await tryDelivery(deps, delivery);
  if (!(await deps.deliveries.finish(delivery.id, claimId, outcome)))
    deps.logger.info({ delivery_id: delivery.id }, 'delivery was retaken or replayed during its attempt; outcome dropped');
}
