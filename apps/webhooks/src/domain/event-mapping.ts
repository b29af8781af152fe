import type { WebhookEvent } from './webhook.js';

/** The fields of feedback.survey.v1.SurveyResponse the event carries (the proto's shape, decoded by the consumer). */
export interface AnsweredResponse {
  id: string;
  accountId: string;
  flowId: string;
  channelId: string;
  nodeId: string;
  customerId: string;
  answers: { questionKey: string; optionKeys: string[]; text?: string | undefined; number?: number | undefined }[];
  builtInResponses: Record<string, string>;
  answeredAt: string;
}

/** feedback.messaging.v1.SmsStatusChanged. */
export interface SmsStatus {
  messageId: string;
  sharingId: string;
  accountId: string;
  phone: string;
  status: string;
  error: string;
  at: string;
}

/** feedback.file.v1.FileExpired. */
export interface ExpiredFile {
  fileId: string;
  accountId: string;
  directoryId: string;
  filename: string;
  expiredAt: string;
}

/** feedback.messaging.v1.SharingCompleted (counts: feedback.messaging.v1.SharingCounts, absent when not set). */
export interface CompletedSharing {
  sharingId: string;
  accountId: string;
  campaignId: string;
  accepted: number;
  counts?: { sent: number; delivered: number; failed: number; optedOut: number; cancelled: number; other: number } | undefined;
  completedAt: string;
}

const dateOr = (iso: string, fallback: Date) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? fallback : d;
};

export function surveyAnsweredEvent(eventId: string, r: AnsweredResponse, now: Date): WebhookEvent {
  return {
    id: eventId,
    accountId: r.accountId,
    type: 'survey.answered',
    timestamp: dateOr(r.answeredAt, now),
    data: {
      response_id: r.id,
      flow_id: r.flowId,
      channel_id: r.channelId,
      node_id: r.nodeId,
      customer_id: r.customerId,
      answered_at: r.answeredAt,
      answers: r.answers.map((a) => ({
        question_key: a.questionKey,
        ...(a.optionKeys.length > 0 ? { option_keys: a.optionKeys } : {}),
        ...(a.text !== undefined ? { text: a.text } : {}),
        ...(a.number !== undefined ? { number: a.number } : {}),
      })),
      built_in_responses: r.builtInResponses,
    },
  };
}

const SMS_TYPES: Record<string, WebhookEvent['type']> = {
  delivered: 'sms.delivered',
  failed: 'sms.failed',
  opted_out: 'sms.opted_out',
};

/** Only delivered, failed and opted_out are webhook events; other statuses (sent, queued, ...) answer null. */
export function smsStatusEvent(eventId: string, s: SmsStatus, now: Date): WebhookEvent | null {
  const type = SMS_TYPES[s.status];
  if (!type) return null;
  return {
    id: eventId,
    accountId: s.accountId,
    type,
    timestamp: dateOr(s.at, now),
    data: {
      message_id: s.messageId,
      sharing_id: s.sharingId,
      phone: s.phone,
      status: s.status,
      ...(s.error ? { error: s.error } : {}),
      at: s.at,
    },
  };
}

export function fileExpiredEvent(eventId: string, f: ExpiredFile, now: Date): WebhookEvent {
  return {
    id: eventId,
    accountId: f.accountId,
    type: 'file.expired',
    timestamp: dateOr(f.expiredAt, now),
    data: { file_id: f.fileId, directory_id: f.directoryId, filename: f.filename, expired_at: f.expiredAt },
  };
}

/**
 * A sharing whose first messages are all settled. Its counts are those of GET
 * /v1/sms_sharings/{id} that can be final (`other`: unknown, maybe sent). Messaging may raise one
 * sharing's event more than once, always under the id `sharing.completed:<sharing id>`, so it
 * makes one delivery per endpoint.
 */
export function sharingCompletedEvent(eventId: string, s: CompletedSharing, now: Date): WebhookEvent {
  const c = s.counts;
  return {
    id: eventId,
    accountId: s.accountId,
    type: 'sharing.completed',
    timestamp: dateOr(s.completedAt, now),
    data: {
      sharing_id: s.sharingId,
      campaign_id: s.campaignId,
      accepted: s.accepted,
      counts: {
        sent: c?.sent ?? 0,
        delivered: c?.delivered ?? 0,
        failed: c?.failed ?? 0,
        opted_out: c?.optedOut ?? 0,
        cancelled: c?.cancelled ?? 0,
        other: c?.other ?? 0,
      },
      completed_at: s.completedAt,
    },
  };
}

/** The body every attempt of a delivery sends (Standard Webhooks: type, timestamp, data). */
export function bodyOf(event: WebhookEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp.toISOString(), data: event.data });
}
