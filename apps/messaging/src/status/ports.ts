import type { Page, PageQuery } from '@feedback/kit-core';
import type { CampaignRepository } from '../campaigns/ports.js';
import type { SmsEncoding } from '../shared/domain/sms-encoding.js';
import type { DeliveryError, SettledStatus, SmsMessage } from '../shared/domain/sms-message.js';
import type { Clock, LinkShortener, MessageRepository, MessagingSettings, SharingRepository, SurveyLinks } from '../shared/ports.js';

/** A sharing whose first messages are all settled (sharing-completion.use-cases.ts). */
export interface SharingCompletion {
  sharingId: string;
  accountId: string;
  campaignId: string;
  accepted: number;
  counts: Record<SettledStatus, number>;
  completedAt: Date;
}

/**
 * Publishes `sharing.completed`. At least once: every repeat of one sharing's event carries the
 * same event id, which consumers dedupe by.
 */
export interface CompletionEvents {
  completed(c: SharingCompletion): Promise<void>;
}

/**
 * Publishes `sms.status` for statuses set by delivery reports. The event id is derived from the
 * message id and the status only (`sms.status:<UUID>:<status>`), so whatever publishes it again
 * (the outbox relay, another replica) makes the webhooks service's one delivery per endpoint.
 */
export interface ReportEvents {
  reported(msgs: SmsMessage[]): Promise<void>;
}

/** What the recording provider recorded (GET /admin/v1/accounts/{account_id}/sms_messages). */
export interface RecordedMessage {
  messageId: string;
  accountId: string;
  sharingId: string;
  phone: string;
  text: string;
  /** Its message record's status (delivered, failed… once reported), else `sent`, as recorded. */
  status: string;
  /** Its message record's reason and delivery report's error, when it has them. */
  error?: string | null;
  deliveryError?: DeliveryError;
  createdAt: Date;
  /** Absent on messages recorded before the cost was kept. */
  encoding?: SmsEncoding;
  segments?: number;
}

/** A page of recorded messages; `nextPageToken` is '' on the last page. */
export type RecordedMessagePage = Page<RecordedMessage>;

export interface RecordedMessages {
  /** Newest first; `phone` normalized digits. */
  list(q: { accountId: string; phone?: string; page: PageQuery }): Promise<RecordedMessagePage>;
}

/** What a sharing's status, its completion, delivery reports and recorded messages are given (wiring.ts builds it). */
export interface StatusDeps {
  sharings: SharingRepository;
  messages: MessageRepository;
  campaigns: CampaignRepository;
  /** A sharing's status counts answered survey links and followed short links. */
  links: SurveyLinks;
  shortener: LinkShortener;
  /** `sharing.completed`, raised by the scheduler leader's sweep (sharing-completion.use-cases.ts). */
  completions: CompletionEvents;
  /** `sms.status` of statuses set by delivery reports (delivery-report.ts). */
  reportEvents: ReportEvents;
  recordedMessages: RecordedMessages;
  clock: Clock;
  settings: MessagingSettings;
}
