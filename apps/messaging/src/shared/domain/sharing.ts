import type { SendWindow } from './send-window.js';

/** A second SMS to the recipients who have not answered: `after` the sharing's first messages were due. */
export interface CampaignReminder {
  /** ISO 8601 duration, as given (P1D). */
  after: string;
  afterMs: number;
  /** null: the campaign's template. */
  messageTemplate: string | null;
}

/** An SMS campaign: a survey channel plus the message template its SMS use, and when and how they go out. */
export interface SmsCampaign {
  id: string;
  accountId: string;
  name: string;
  nodeId: string;
  flowId: string;
  /** The survey service's channel that hands out the personal survey links. */
  channelId: string;
  messageTemplate: string;
  createdAt: Date;
  /** null: the deployment's default window, if any. */
  sendWindow: SendWindow | null;
  /** At most 3, in the order they go out. */
  reminders: CampaignReminder[];
  /** Rendered text (never the link) mapped to GSM 7-bit letters (ş→s, ğ→g, ...). */
  transliterate: boolean;
}

/** One accepted recipient of a sharing. */
export interface Recipient {
  /** Normalized: E.164 digits without "+". */
  phone: string;
  /** As the caller wrote it; the key of its custom attributes and built-in responses. */
  input: string;
  attributes: Record<string, string>;
  builtInResponses: Record<string, string>;
}

export interface RejectedPhone {
  phone: string;
  reason: string;
  /** The line of a CSV workflow's file (the header is line 1). */
  row?: number;
}

export interface SmsSharing {
  id: string;
  accountId: string;
  campaignId: string;
  createdAt: Date;
  accepted: number;
  duplicates: number;
  rejected: RejectedPhone[];
  /** When its first messages are due (send_at, moved into the send window); null: at once. */
  scheduledFor: Date | null;
  cancelledAt: Date | null;
  /**
   * First messages settled so far as dispatchers and cancels noted them, and when last: a hint of
   * when to count them (sharing-completion.use-cases.ts); a crash between a message's write and
   * the note leaves it short. Absent until the first note.
   */
  settledFirsts?: number;
  progressedAt?: Date | null;
  /** When sharing.completed was raised (every first message settled); absent or null until then. */
  completedAt?: Date | null;
}

/** Where a sharing stands as a whole: the lists' `status` (docs/api.md "Lists of campaigns and sharings"). */
export const SHARING_STATES = ['scheduled', 'in_progress', 'completed', 'cancelled'] as const;
export type SharingState = (typeof SHARING_STATES)[number];

/**
 * Read from what the sharing stores, never from its messages: cancelled once a cancel was asked
 * (whatever had gone out), completed once sharing.completed was raised or when no phone was
 * accepted (nothing to send), scheduled while its first messages are due later, else in progress.
 */
export function sharingState(s: SmsSharing, now: Date): SharingState {
  if (s.cancelledAt) return 'cancelled';
  if (s.completedAt || s.accepted === 0) return 'completed';
  if (s.scheduledFor && s.scheduledFor.getTime() > now.getTime()) return 'scheduled';
  return 'in_progress';
}

/** What the API answers on creation (docs/api.md "SMS sharing"). */
export interface SharingSummary {
  id: string;
  accepted: number;
  rejected: number;
  duplicate: number;
  rejectedPhones: RejectedPhone[];
  scheduledFor: Date | null;
}

/** One `sms.dispatch` event: everything the consumer needs, so it never reads the sharing back. */
export interface DispatchEvent {
  sharingId: string;
  accountId: string;
  campaignId: string;
  recipient: Recipient;
  /** 0: the sharing's message; 1-3: that reminder of the campaign. */
  reminder: number;
}
