import type { Clock, MessageRepository } from './ports.js';
import type { DeliveryStatus, SmsMessage } from './sms-message.js';

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
  deps: { messages: MessageRepository; clock: Clock },
  report: { messageId: string; code: string },
  rule: DeliveryRule,
): Promise<ReportOutcome> {
  const status = deliveryStatusFor(report.code, rule);
  const existing: SmsMessage | null = await deps.messages.findById(report.messageId);
  if (!existing) return 'unknown_message';
  if (!status) return 'progress';
  const updated = await deps.messages.applyDeliveryReport(report.messageId, status, deps.clock.now());
  return updated ? 'applied' : 'ignored';
}
