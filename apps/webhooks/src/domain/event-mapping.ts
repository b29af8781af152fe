import { answersByQuestion, isoWithOffset } from '@feedback/kit-core';
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
  /** Where the answered link was sent from (absent on responses stored before it was kept). */
  context?: { campaignId: string; sharingId: string; messageId: string; customAttributes: Record<string, string> } | undefined;
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
  /** feedback.messaging.v1.SmsError: what a failing delivery report said (absent otherwise). */
  errorDetail?: { status: string; code: string; description: string } | undefined;
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
      // Keyed by question, as GET /v1/responses/{id} gives them (until this version: an array of {question_key, ...}).
      answers: answersByQuestion(r.answers),
      built_in_responses: r.builtInResponses,
      campaign_id: r.context?.campaignId || null,
      sharing_id: r.context?.sharingId || null,
      message_id: r.context?.messageId || null,
      custom_attributes: r.context ? r.context.customAttributes : null,
    },
  };
}

const SMS_TYPES: Record<string, WebhookEvent['type']> = {
  delivered: 'sms.delivered',
  failed: 'sms.failed',
  opted_out: 'sms.opted_out',
};

/**
 * Only delivered, failed and opted_out are webhook events; other statuses (sent, queued, ...) answer
 * null. `error` is `{status, code, description}` as GET /v1/sms_sharings/{id} shows it: a delivery
 * report's fields (empty ones null), else our reason as the description; null when there is none.
 */
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
      error: smsErrorOf(s),
      at: s.at,
    },
  };
}

function smsErrorOf(s: SmsStatus): { status: string | null; code: string | null; description: string | null } | null {
  const d = s.errorDetail;
  if (d) return { status: d.status || null, code: d.code || null, description: d.description || s.error || null };
  return s.error ? { status: null, code: null, description: s.error } : null;
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

/** feedback.file.v1.FileProcessed: the entry with its final processing (status as the public API spells it). */
export interface ProcessedFile {
  id: string;
  accountId: string;
  directoryId: string;
  directoryName: string;
  filename: string;
  processing: {
    status: 'pending' | 'processed' | 'failed';
    sharingId: string;
    rows: number;
    accepted: number;
    rejected: number;
    errors: { row: number; reason: string }[];
    reason: string;
    processedAt: string;
  };
}

/**
 * A bound file's outcome, once per file (event id `file.processed:<file id>`): `processing` as the
 * file entry shows it (docs/api.md "Workflows on files"), `timestamp` when it was recorded.
 */
export function fileProcessedEvent(eventId: string, f: ProcessedFile, now: Date): WebhookEvent {
  const p = f.processing;
  return {
    id: eventId,
    accountId: f.accountId,
    type: 'file.processed',
    timestamp: dateOr(p.processedAt, now),
    data: {
      file_id: f.id,
      directory_id: f.directoryId,
      directory: f.directoryName,
      filename: f.filename,
      processing: {
        status: p.status,
        sharing_id: p.sharingId || null,
        rows: p.rows,
        accepted: p.accepted,
        rejected: p.rejected,
        errors: p.errors.map((e) => ({ row: e.row, reason: e.reason })),
        reason: p.reason || null,
        // As the file entry shows it (ISO 8601 with offset), so both read the same.
        processed_at: p.processedAt ? isoWithOffset(dateOr(p.processedAt, now)) : null,
      },
    },
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
