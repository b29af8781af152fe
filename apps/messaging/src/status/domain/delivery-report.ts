import type { StatusDeps } from '../ports.js';
import type { DeliveryStatus, ReportRule, SmsMessage } from '../../shared/domain/sms-message.js';

type Deps = Pick<StatusDeps, 'messages' | 'clock'>;

/** How a provider's report codes map to our statuses; codes in neither list are progress only. */
export interface DeliveryRule {
  delivered: readonly string[];
  failed: readonly string[];
}

/** Kannel's dlr-mask bits: 1 delivered, 2 undelivered, 4 queued on SMSC, 8 delivered to SMSC, 16 rejected by SMSC. */
export const KANNEL_DELIVERY_RULE: DeliveryRule = { delivered: ['1'], failed: ['2', '16'] };

export function deliveryStatusFor(code: string, rule: DeliveryRule): DeliveryStatus | null {
  const c = code.trim();
  if (rule.delivered.includes(c)) return 'delivered';
  if (rule.failed.includes(c)) return 'failed';
  return null;
}

export type ReportOutcome = 'applied' | 'progress' | 'unknown_message' | 'ignored';

/**
 * Applies a provider callback to its message. Progress codes (queued, accepted by the SMSC)
 * change nothing; a final status is kept once set, so a late or repeated report cannot
 * turn "delivered" into "failed" or back.
 */
export async function applyDeliveryReport(
  deps: Deps,
  report: { messageId: string; code: string },
  rule: DeliveryRule,
): Promise<ReportOutcome> {
  const existing: SmsMessage | null = await deps.messages.findById(report.messageId);
  if (!existing) return 'unknown_message';
  return applyTo(deps, existing, report.code, rule);
}

/**
 * A provider callback as it came (its query and body fields), read by the rule of the provider
 * that sent the message (recorded on it), or by `fallback` (the deployment's provider) for a
 * message recorded without one. 'missing_status': the rule's status field is not there.
 */
export async function receiveDeliveryReport(
  deps: Deps,
  report: { messageId: string; fields: Record<string, unknown> },
  fallback: ReportRule,
): Promise<ReportOutcome | 'missing_status'> {
  const message = await deps.messages.findById(report.messageId);
  if (!message) return 'unknown_message';
  const rule = message.deliveryRule ?? fallback;
  const code = report.fields[rule.statusParam];
  if (code === undefined) return 'missing_status';
  return applyTo(deps, message, String(code), rule);
}

async function applyTo(deps: Deps, message: SmsMessage, code: string, rule: DeliveryRule): Promise<ReportOutcome> {
  const status = deliveryStatusFor(code, rule);
  if (!status) return 'progress';
  const updated = await deps.messages.applyDeliveryReport(message.id, status, deps.clock.now());
  return updated ? 'applied' : 'ignored';
}
