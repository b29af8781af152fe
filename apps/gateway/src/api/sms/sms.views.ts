import { isoWithOffset } from '@feedback/kit-core';
import { remindersView, sendWindowView } from './campaign-rules.schemas.js';
import type {
  CancelSmsSharingResponse,
  CreateSmsSharingResponse,
  DirectoryBinding,
  GetSmsSharingResponse,
  ListSmsMessagesResponse,
  PreviewSmsMessageResponse,
  SmsCampaign,
  SmsError,
} from '@feedback/proto/feedback/messaging/v1/messaging';

const iso = (s: string) => isoWithOffset(new Date(s));
const isoOrNull = (s: string) => (s ? iso(s) : null);

/** A delivery report's error (empty fields null), else our reason as the description; null when neither. */
export function smsErrorView(reason: string, detail: SmsError | undefined) {
  if (detail) return { status: detail.status || null, code: detail.code || null, description: detail.description || reason || null };
  return reason ? { status: null, code: null, description: reason } : null;
}

export const sharingCreatedView = (campaignId: string, r: CreateSmsSharingResponse) => ({
  id: r.sharingId,
  campaign_id: campaignId,
  accepted: r.accepted,
  rejected: r.rejected,
  duplicate: r.duplicate,
  rejected_phones: r.rejectedPhones.map((p) => ({ phone: p.phone, reason: p.reason })),
  scheduled_for: isoOrNull(r.scheduledFor),
});

export const sharingCancelledView = (r: CancelSmsSharingResponse) => ({ cancelled: r.cancelled, already_sent: r.alreadySent });

export const sharingView = (r: GetSmsSharingResponse) => ({
  id: r.sharingId,
  campaign_id: r.campaignId,
  created_at: iso(r.createdAt),
  scheduled_for: isoOrNull(r.scheduledFor),
  cancelled_at: isoOrNull(r.cancelledAt),
  accepted: r.accepted,
  rejected: r.rejectedPhones.length,
  duplicate: r.duplicate,
  rejected_phones: r.rejectedPhones.map((p) => ({ phone: p.phone, reason: p.reason })),
  counts: {
    scheduled: r.counts?.scheduled ?? 0,
    queued: r.counts?.queued ?? 0,
    sending: r.counts?.sending ?? 0,
    sent: r.counts?.sent ?? 0,
    delivered: r.counts?.delivered ?? 0,
    failed: r.counts?.failed ?? 0,
    opted_out: r.counts?.optedOut ?? 0,
    cancelled: r.counts?.cancelled ?? 0,
    other: r.counts?.other ?? 0,
  },
  segments: r.segments,
  funnel: { clicked: r.funnel?.clicked ?? 0, answered: r.funnel?.answered ?? 0 },
  recipients: r.recipients.map((p) => ({
    phone: p.phone,
    status: p.status,
    error: smsErrorView(p.error, p.errorDetail),
    updated_at: p.updatedAt ? iso(p.updatedAt) : null,
    encoding: p.encoding || null,
    segments: p.segments,
    reminders: p.reminders.map((m) => ({ reminder: m.reminder, status: m.status, segments: m.segments, updated_at: iso(m.updatedAt) })),
  })),
});

export const previewView = (r: PreviewSmsMessageResponse) => ({
  text: r.text,
  encoding: r.encoding,
  segments: r.segments,
  characters: r.characters,
});

/** A campaign as the admin API shows it; `warnings` only on a create or an update. */
export function campaignView(c: SmsCampaign | undefined, warnings?: string[]) {
  if (!c) throw new Error('messaging answered without a campaign');
  return {
    id: c.id,
    name: c.name,
    node_id: c.nodeId,
    flow_id: c.flowId,
    message_template: c.messageTemplate,
    created_at: iso(c.createdAt),
    send_window: sendWindowView(c.sendWindow),
    reminders: remindersView(c.reminders),
    transliterate: c.transliterate,
    ...(warnings && { warnings }),
  };
}

export const messagesPageView = (r: ListSmsMessagesResponse) => ({
  data: r.messages.map((m) => ({
    id: m.messageId,
    sharing_id: m.sharingId,
    phone: m.phone,
    text: m.text,
    status: m.status,
    error: smsErrorView(m.error, m.errorDetail),
    created_at: iso(m.createdAt),
    encoding: m.encoding || null,
    segments: m.encoding ? m.segments : null,
  })),
  next_page_token: r.nextPageToken || null,
});

/** The request body in the proto's shape: attributes as text, nulls dropped (messaging re-checks them). */
export function perPhoneAttributes(map: Record<string, Record<string, string | number | boolean | null>> | undefined) {
  const out: Record<string, { values: Record<string, string> }> = {};
  for (const [phone, attrs] of Object.entries(map ?? {})) {
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(attrs)) if (v !== null) values[k] = String(v);
    out[phone] = { values };
  }
  return out;
}

export const bindingView = (b: DirectoryBinding) => ({
  campaign_id: b.campaignId,
  directory_id: b.directoryId,
  file_name: b.fileName,
  created_at: iso(b.createdAt),
  updated_at: iso(b.updatedAt),
});
