import { signingSecrets } from './endpoint.use-cases.js';
import type { AttemptOutcome, SendResult, WebhookSettings, WebhooksDeps } from './ports.js';
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

/**
 * Claims one due delivery and makes one attempt of it; false when none was due. A delivery whose
 * endpoint is gone or disabled ends without an attempt.
 */
export async function deliverNextDue(deps: Deps): Promise<boolean> {
  // A claim of its own per attempt: the outcome is written only if this attempt still holds it.
  const claimId = deps.newId();
  const delivery = await deps.deliveries.claimDue(deps.clock.now(), deps.settings.leaseMs, claimId);
  if (!delivery) return false;
  const endpoint = await deps.endpoints.findById(delivery.endpointId);
  if (!endpoint || !endpoint.enabled) {
    const note = endpoint
      ? `not sent: endpoint disabled${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''}`
      : 'not sent: endpoint deleted';
    await deps.deliveries.finish(delivery.id, claimId, {
      attempt: null,
      status: 'failed',
      nextAttemptAt: null,
      retryIndex: delivery.retryIndex,
      note,
    });
    return true;
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
  if (!(await deps.deliveries.finish(delivery.id, claimId, outcome)))
    deps.logger.info({ delivery_id: delivery.id }, 'delivery was retaken or replayed during its attempt; outcome dropped');
  return true;
}
