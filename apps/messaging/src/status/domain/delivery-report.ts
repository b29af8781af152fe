import type { StatusDeps } from '../ports.js';
import type { DeliveryError, DeliveryStatus, ReportRule, SmsMessage } from '../../shared/domain/sms-message.js';

type Deps = Pick<StatusDeps, 'messages' | 'reportEvents' | 'clock'>;

/** How a provider's report codes map to our statuses; codes in neither list are progress only. */
export interface DeliveryRule {
  delivered: readonly string[];
  failed: readonly string[];
  errorParam?: string;
  descriptionParam?: string;
}

/** Kannel's dlr-mask bits: 1 delivered, 2 undelivered, 4 queued on SMSC, 8 delivered to SMSC, 16 rejected by SMSC. */
export const KANNEL_DELIVERY_RULE: DeliveryRule = { delivered: ['1'], failed: ['2', '16'] };

export function deliveryStatusFor(code: string, rule: DeliveryRule): DeliveryStatus | null {
  const c = code.trim();
  if (rule.delivered.includes(c)) return 'delivered';
  if (rule.failed.includes(c)) return 'failed';
  return null;
}

/**
 * 'applied': the report changed the record and its event went out; 'applied_unpublished': it
 * changed the record but the publish failed (the relay, publishOwedReports, sends it later).
 */
export type ReportOutcome = 'applied' | 'applied_unpublished' | 'progress' | 'unknown_message' | 'ignored';

/**
 * Applies a provider callback to its message. Progress codes (queued, accepted by the SMSC)
 * change nothing; a final status is kept once set, so a late or repeated report cannot
 * turn "delivered" into "failed" or back, and only the report that set it publishes it.
 */
export async function applyDeliveryReport(
  deps: Deps,
  report: { messageId: string; code: string; fields?: Record<string, unknown> },
  rule: DeliveryRule,
): Promise<ReportOutcome> {
  const existing: SmsMessage | null = await deps.messages.findById(report.messageId);
  if (!existing) return 'unknown_message';
  return applyTo(deps, existing, report.code, report.fields ?? {}, rule);
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
  return applyTo(deps, message, String(code), report.fields, rule);
}

async function applyTo(
  deps: Deps,
  message: SmsMessage,
  code: string,
  fields: Record<string, unknown>,
  rule: DeliveryRule,
): Promise<ReportOutcome> {
  const status = deliveryStatusFor(code, rule);
  if (!status) return 'progress';
  const error = status === 'failed' ? deliveryErrorOf(code, fields, rule) : undefined;
  const updated = await deps.messages.applyDeliveryReport(message.id, status, deps.clock.now(), error);
  if (!updated) return 'ignored';
  try {
    await publishReported(deps, [updated]);
    return 'applied';
  } catch {
    // The record says its event is owed: the relay publishes it (the provider is answered 200,
    // since a repeat of the report would change nothing and publish nothing).
    return 'applied_unpublished';
  }
}

async function publishReported(deps: Pick<Deps, 'messages' | 'reportEvents'>, msgs: SmsMessage[]): Promise<void> {
  await deps.reportEvents.reported(msgs);
  await Promise.all(msgs.map((m) => deps.messages.reportPublished(m.id, m.status as DeliveryStatus)));
}

/**
 * The relay of the record-level outbox: publishes the report events owed for `graceMs` or more
 * (the report's own publish failed, or its process died between the update and the publish).
 * Every replica may run it: a repeat carries the same event id. True when a full batch was
 * published (more may be owed).
 */
export async function publishOwedReports(deps: Deps, o: { graceMs: number; limit: number }): Promise<boolean> {
  const owed = await deps.messages.unpublishedReports(new Date(deps.clock.now().getTime() - o.graceMs), o.limit);
  if (owed.length > 0) await publishReported(deps, owed);
  return owed.length === o.limit;
}

const CODE_MAX = 64;
const DESCRIPTION_MAX = 200;
// An SMPP delivery receipt (Kannel's %A): `id:… sub:001 dlvrd:000 submit date:… done date:… stat:UNDELIV err:001 text:…`.
const RECEIPT_ERR = /(?:^|\s)err:(\S+)/i;
const RECEIPT_STAT = /(?:^|\s)stat:(\S+)/i;

/**
 * The error a failing report carries: its status code, and the fields the rule names. A receipt
 * text gives its `err:` and `stat:` only: its `text:` holds the start of the SMS, which is not kept.
 */
export function deliveryErrorOf(code: string, fields: Record<string, unknown>, rule: DeliveryRule): DeliveryError {
  const raw = rule.errorParam ? fieldText(fields[rule.errorParam]) : null;
  const receipt = raw !== null && RECEIPT_ERR.test(raw);
  const errCode = receipt ? RECEIPT_ERR.exec(raw)![1]! : raw;
  const description = rule.descriptionParam
    ? fieldText(fields[rule.descriptionParam])
    : receipt
      ? (RECEIPT_STAT.exec(raw)?.[1] ?? null)
      : null;
  return { status: code.trim(), code: clip(errCode, CODE_MAX), description: clip(description, DESCRIPTION_MAX) };
}

const fieldText = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

// Control characters dropped: the values are shown in the API and the webhook body as they are.
function clip(v: string | null, max: number): string | null {
  if (v === null) return null;
  // eslint-disable-next-line no-control-regex
  const clean = v.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return clean ? clean.slice(0, max) : null;
}
