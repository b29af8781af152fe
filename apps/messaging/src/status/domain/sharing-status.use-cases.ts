import { errors } from '@feedback/kit-core';
import type { StatusDeps } from '../ports.js';
import type { SmsSharing } from '../../shared/domain/sharing.js';
import type { SmsEncoding } from '../../shared/domain/sms-encoding.js';
import type { DeliveryError, MessageStatus, SmsMessage } from '../../shared/domain/sms-message.js';

type Deps = Pick<StatusDeps, 'sharings' | 'messages' | 'campaigns' | 'links' | 'shortener' | 'clock'>;

/** A recipient without a message record: waiting for the sharing's send time, or for the dispatcher. */
export type WaitingStatus = 'scheduled' | 'queued';

export interface ReminderStatus {
  /** 1-3. */
  reminder: number;
  status: MessageStatus;
  segments: number;
  updatedAt: Date;
}

export interface RecipientStatus {
  phone: string;
  /** Of its first message; "scheduled" or "queued" until the dispatcher has claimed it. */
  status: MessageStatus | WaitingStatus;
  error: string | null;
  /** What a failing delivery report said. */
  deliveryError?: DeliveryError;
  updatedAt: Date | null;
  /** What its first message costs, once rendered; null before (or a record that never had a text). */
  encoding: SmsEncoding | null;
  segments: number;
  /** The reminders that went out to it (or were decided: opted out, cancelled), in order. */
  reminders: ReminderStatus[];
}

/** Recipients by the status of their first message; `other`: retryable and unknown. */
export type SharingCounts = Record<
  WaitingStatus | 'sending' | 'sent' | 'delivered' | 'failed' | 'opted_out' | 'cancelled' | 'other',
  number
>;

export interface SharingStatus {
  sharing: SmsSharing;
  recipients: RecipientStatus[];
  counts: SharingCounts;
  /** Every message record of the sharing, reminders included: what it is billed as so far. */
  segments: number;
  funnel: { clicked: number; answered: number };
}

const COUNTED: readonly (keyof SharingCounts)[] = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'delivered',
  'failed',
  'opted_out',
  'cancelled',
];

/**
 * GET /v1/sms_sharings/{id}: the sharing, where each recipient's SMS stands, the counts by
 * status, the segments billed, and the funnel. A recipient without a message record is
 * "scheduled" while the sharing's first messages are due in the future (and it is not
 * cancelled), else "queued".
 *
 * The funnel counts recipients whose first message carried a link: `clicked`, whose short link
 * was followed at least once (the shortener's click counts, a few seconds behind), and
 * `answered`, whose survey link of the campaign's channel is answered. A link is the
 * recipient's in the channel, not the sharing's: a later sharing of the same campaign
 * re-activates it, and an answer then counts for that one. A few round trips whatever the size:
 * the recipients, the records, one call to the shortener and one per 1,000 links to the survey
 * service.
 */
export async function getSharingStatus(deps: Deps, accountId: string, sharingId: string): Promise<SharingStatus> {
  const sharing = await deps.sharings.findById(accountId, sharingId);
  if (!sharing) throw errors.notFound('sharing_id', sharingId);
  const [phones, messages, campaign] = await Promise.all([
    deps.sharings.listRecipientPhones(sharing.id),
    deps.messages.listBySharing(sharing.id),
    deps.campaigns.findById(accountId, sharing.campaignId),
  ]);
  const firsts = new Map<string, SmsMessage>();
  const reminders = new Map<string, SmsMessage[]>();
  for (const m of messages) {
    if ((m.reminder ?? 0) === 0) firsts.set(m.phone, m);
    else reminders.set(m.phone, [...(reminders.get(m.phone) ?? []), m]);
  }

  const waiting = waitingStatusOf(sharing, deps.clock.now());
  const recipients = phones.map((phone) => recipientStatusOf(phone, firsts.get(phone), reminders.get(phone) ?? [], waiting));

  const counts = Object.fromEntries([...COUNTED, 'other'].map((k) => [k, 0])) as SharingCounts;
  for (const r of recipients) counts[(COUNTED as readonly string[]).includes(r.status) ? (r.status as keyof SharingCounts) : 'other']++;

  const linked = phones.flatMap((phone) => {
    const link = firsts.get(phone)?.link;
    return link ? [{ phone, code: codeOf(link) }] : [];
  });
  const [clicked, states] =
    linked.length > 0 && campaign
      ? await Promise.all([
          deps.shortener.countClicked(
            accountId,
            linked.map((l) => l.code),
          ),
          deps.links.statesOf(
            accountId,
            campaign.channelId,
            linked.map((l) => l.phone),
          ),
        ])
      : [0, []];
  return {
    sharing,
    recipients,
    counts,
    segments: messages.reduce((sum, m) => sum + (m.segments ?? 0), 0),
    funnel: { clicked, answered: states.filter((s) => s === 'answered').length },
  };
}

/** What a recipient without a message record waits for: the sharing's send time, else the dispatcher. */
export function waitingStatusOf(sharing: SmsSharing, now: Date): WaitingStatus {
  return sharing.scheduledFor && !sharing.cancelledAt && sharing.scheduledFor.getTime() > now.getTime() ? 'scheduled' : 'queued';
}

/** A recipient's status from its first message's record (none yet: `waiting`) and its reminders' records. */
export function recipientStatusOf(
  phone: string,
  first: SmsMessage | undefined,
  reminders: SmsMessage[],
  waiting: WaitingStatus,
): RecipientStatus {
  const sent = reminders
    .map((r) => ({ reminder: r.reminder!, status: r.status, segments: r.segments ?? 0, updatedAt: r.updatedAt }))
    .sort((a, b) => a.reminder - b.reminder);
  return first
    ? {
        phone,
        status: first.status,
        error: first.error,
        ...(first.deliveryError && { deliveryError: first.deliveryError }),
        updatedAt: first.updatedAt,
        encoding: first.encoding ?? null,
        segments: first.segments ?? 0,
        reminders: sent,
      }
    : { phone, status: waiting, error: null, updatedAt: null, encoding: null, segments: 0, reminders: sent };
}

/** A short link's code: the last segment of its path (https://<domain>/<code>). */
const codeOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);
