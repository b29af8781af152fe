import type { SmsEncoding } from './sms-encoding.js';

/**
 * One SMS of one sharing to one phone; its id is `<sharing id>.<phone>`, so a redelivered
 * dispatch event finds the same record.
 *   sending → sent → delivered | failed      (delivery reports)
 *   sending → retryable → sending ...        (the provider refused before accepting)
 *   sending → unknown                        (maybe sent: never sent again)
 *   sending → failed                         (refused for good)
 *   cancelled                                (its sharing was cancelled before it was claimed;
 *                                             a retryable one is cancelled too)
 *   opted_out                                (its phone was on the account's suppression list when its
 *                                             turn came: never handed to a provider)
 * A reminder's record is `<sharing id>.<phone>.r<n>`.
 */
export type MessageStatus = 'sending' | 'sent' | 'retryable' | 'unknown' | 'delivered' | 'failed' | 'cancelled' | 'opted_out';

/** What a delivery report can say. */
export type DeliveryStatus = 'delivered' | 'failed';

/**
 * How a provider's delivery reports read: the query or body field with the status code, and the
 * codes that are final (others are progress). Kept on each message, so a report is read by the
 * rule of the provider that sent it (an account's own one, which may have changed since).
 */
export interface ReportRule {
  statusParam: string;
  delivered: readonly string[];
  failed: readonly string[];
  /** The field with the provider's error code, or an SMPP receipt text (`… stat:UNDELIV err:001 …`) holding it. */
  errorParam?: string;
  /** The field with the provider's description of the error. */
  descriptionParam?: string;
}

/**
 * What a provider's delivery report said of a message it failed: the report's status code, and
 * the provider's error code and description when the report has them (null otherwise).
 */
export interface DeliveryError {
  status: string;
  code: string | null;
  description: string | null;
}

export interface SmsMessage {
  id: string;
  accountId: string;
  sharingId: string;
  campaignId: string;
  phone: string;
  text: string;
  provider: string;
  status: MessageStatus;
  /** Claims so far (1 on the first). */
  attempts: number;
  providerMessageId: string | null;
  /** Our reason for a refusal (before or by the provider); a delivery report's is `deliveryError`. */
  error: string | null;
  /** Set by a delivery report that failed the message. */
  deliveryError?: DeliveryError;
  createdAt: Date;
  updatedAt: Date;
  /** The sending provider's report rule; none: the deployment's (records written before it was kept). */
  deliveryRule?: ReportRule;
  /** The recipient's short survey link in the text (a reminder sends the same one); absent on records written before it was kept. */
  link?: string;
  /** 0: the sharing's message; 1-3: that reminder (absent on records written before reminders: 0). */
  reminder?: number;
  /**
   * What its text costs as its provider sends it: the encoding and the segments it is billed as
   * (sms-encoding.ts). Absent on records written before the cost was kept, and on records of
   * messages never rendered (cancelled, opted out before their turn).
   */
  encoding?: SmsEncoding;
  segments?: number;
}

// A dot, not a colon: the id travels in callback URLs, where it must need no escaping.
export const messageId = (sharingId: string, phone: string, reminder = 0) =>
  reminder > 0 ? `${sharingId}.${phone}.r${reminder}` : `${sharingId}.${phone}`;

/**
 * A first message that is settled: handed to the provider (sent, delivered, failed, and unknown,
 * which may have been sent and is never sent again) or certainly never sent (opted_out,
 * cancelled). Not sending, which its claimer may still finish, nor retryable, which is tried again.
 */
export const SETTLED_STATUSES = ['sent', 'delivered', 'failed', 'unknown', 'opted_out', 'cancelled'] as const;
export type SettledStatus = (typeof SETTLED_STATUSES)[number];

/** Statuses a delivery report may still change (a report may also resolve an "unknown"). */
export const REPORTABLE_STATUSES: readonly MessageStatus[] = ['sending', 'sent', 'unknown'];

/**
 * The record of a message that no provider will see (its phone opted out, or its sharing was
 * cancelled before it was claimed): it takes the message's id, so a later claim finds it taken.
 */
export function unsentRecord(m: {
  accountId: string;
  sharingId: string;
  campaignId: string;
  phone: string;
  reminder?: number;
  /** `failed`: an event refused for good before any provider saw it (dispatch.use-cases.ts), with its reason. */
  status: 'opted_out' | 'cancelled' | 'failed';
  error?: string;
  at: Date;
}): SmsMessage {
  const reminder = m.reminder ?? 0;
  return {
    id: messageId(m.sharingId, m.phone, reminder),
    accountId: m.accountId,
    sharingId: m.sharingId,
    campaignId: m.campaignId,
    phone: m.phone,
    text: '',
    provider: '',
    status: m.status,
    attempts: 0,
    providerMessageId: null,
    error: m.error ?? null,
    createdAt: m.at,
    updatedAt: m.at,
    ...(reminder > 0 && { reminder }),
  };
}
