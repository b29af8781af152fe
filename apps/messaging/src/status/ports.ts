import type { Clock } from '@feedback/kit-core';
import type { CampaignRepository } from '../campaigns/ports.js';
import type { LinkShortener } from '../dispatch/ports.js';
import type { RecordedMessages } from '../providers/ports.js';
import type { SettledStatus } from '../shared/domain/sms-message.js';
import type { MessageRepository, MessagingSettings, SharingRepository, SurveyLinks } from '../shared/ports.js';

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
  recordedMessages: RecordedMessages;
  clock: Clock;
  settings: MessagingSettings;
}
