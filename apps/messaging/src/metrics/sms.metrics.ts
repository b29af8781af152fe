import { counter } from '@feedback/kit-metrics';
import type { ProviderResult } from '../providers/ports.js';
import type { DeliveryStatus } from '../shared/domain/sms-message.js';

/**
 * What the SMS path reports to Prometheus, as a port: the metered adapters (metered.ts) call it,
 * unit tests pass a fake. Labels are the provider's name (outbox for the recording provider,
 * http, account-http: set in code, never by a request) and a reason or status class; never an
 * account, sharing or phone.
 */
export interface SmsMetrics {
  /** Recipients of a sharing queued for sending (one sms.dispatch event each). */
  accepted(count: number): void;
  /** One hand-over to a provider and what came of it. */
  handedOver(provider: string, result: ProviderResult): void;
  /** A delivery report that set a message's final status. */
  deliveryReport(provider: string, status: DeliveryStatus): void;
}

/** Why a hand-over did not send, as a bounded label. */
export type FailureReason = 'refused' | 'refused_retriable' | 'unknown';

export function failureReason(result: ProviderResult): FailureReason | null {
  if (result.outcome === 'accepted') return null;
  if (result.outcome === 'unknown') return 'unknown';
  return result.retriable ? 'refused_retriable' : 'refused';
}

/** The Prometheus side of SmsMetrics, on the process's registry (kit-metrics). */
export function promSmsMetrics(): SmsMetrics {
  const accepted = counter({
    name: 'sms_accepted_total',
    help: 'Recipients accepted by SMS sharings and queued for sending (a sharing repeated with its Idempotency-Key counts again)',
  });
  const sent = counter({
    name: 'sms_sent_total',
    help: 'SMS handed to a provider and accepted by it, by provider',
    labelNames: ['provider'] as const,
  });
  const failed = counter({
    name: 'sms_failed_total',
    help: 'SMS hand-overs that did not send, by provider and reason (refused: for good; refused_retriable: retried later; unknown: maybe sent, never retried)',
    labelNames: ['provider', 'reason'] as const,
  });
  const reports = counter({
    name: 'sms_delivery_reports_total',
    help: 'Delivery reports that set a final status, by provider and status (delivered, undelivered)',
    labelNames: ['provider', 'status'] as const,
  });
  return {
    accepted: (count) => accepted.inc(count),
    handedOver(provider, result) {
      const reason = failureReason(result);
      if (reason === null) sent.inc({ provider });
      else failed.inc({ provider, reason });
    },
    deliveryReport: (provider, status) => reports.inc({ provider, status: status === 'delivered' ? 'delivered' : 'undelivered' }),
  };
}
