import type { Page, PageQuery } from '@feedback/kit-core';
import type { SendWindow } from './domain/send-window.js';
import type { DispatchEvent, Recipient, SmsSharing } from './domain/sharing.js';
import type { DeliveryError, DeliveryStatus, MessageStatus, SmsMessage } from './domain/sms-message.js';
import type { CostSettings } from './domain/sms-text.js';

export type { Clock } from '@feedback/kit-core';

export interface SharingRepository {
  /**
   * Starts storing a sharing's recipients; safe to repeat with the same recipients (same ids,
   * nothing doubled). Their sensitive attributes (the TCKN, SENSITIVE_CUSTOMER_ATTRIBUTES) are
   * never stored in clear: kept sealed when `keepSensitive` (a deferred sharing, whose first
   * messages are released later), else not stored at all (they travel in sms.dispatch only).
   */
  writeRecipients(sharingId: string, opts?: { keepSensitive?: boolean }): RecipientWriter;
  /** Forgets the sensitive attributes kept for a deferred sharing, once its first messages are released (or it is dropped). */
  dropSensitiveAttributes(sharingId: string): Promise<void>;
  findById(accountId: string, id: string): Promise<SmsSharing | null>;
  /** The normalized phones of a sharing's recipients, in phone order. */
  listRecipientPhones(sharingId: string): Promise<string[]>;
  /**
   * The phones of a sharing's `index`-th recipient document (0-based, in the order they are
   * stored: one document holds up to 1,000), null past the last: a page of recipients reads only
   * the documents it shows.
   */
  recipientPhonesAt(sharingId: string, index: number): Promise<string[] | null>;
  /** Whether the phone (normalized) is one of the sharing's recipients. */
  hasRecipient(sharingId: string, phone: string): Promise<boolean>;
  /** A sharing's recipients, a page (up to 1,000) at a time. */
  recipientPages(sharingId: string): AsyncIterable<Recipient[]>;
  /** Marks the account's sharing cancelled (once: a repeat keeps the first time); null when it has none. */
  cancel(accountId: string, id: string, at: Date): Promise<SmsSharing | null>;
  /**
   * Sharings created since `since` whose sharing.completed is not raised yet and whose first
   * messages are due by `now` (not scheduled later), in creation order (then id) after `after`
   * when given, at most `limit`.
   */
  incomplete(q: { since: Date; now: Date; after: { createdAt: Date; id: string } | null; limit: number }): Promise<SmsSharing[]>;
  /** Notes that its sharing.completed was raised: the sweep looks at it no more. */
  markCompleted(id: string, at: Date): Promise<void>;
  /** Adds to each sharing's settledFirsts (by sharing id) and sets its progressedAt: one write for all. */
  noteSettled(counts: ReadonlyMap<string, number>, at: Date): Promise<void>;
  /** A page of the account's sharings, newest first (ListSmsSharings). */
  list(q: SharingListQuery): Promise<Page<SmsSharing>>;
}

/**
 * The account's sharings, of one campaign when given, created in [createdAfter, createdBefore);
 * `accept` is checked on each one read down the index (a condition no index serves: the status).
 */
export interface SharingListQuery {
  accountId: string;
  campaignId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  accept?: (s: SmsSharing) => boolean;
  page: PageQuery;
}

/**
 * A sharing's recipients, written as they are handed over while the caller prepares the next
 * ones. `complete` waits for every write (a failed one fails it) and then stores the sharing
 * itself, so a sharing that can be read is complete.
 */
export interface RecipientWriter {
  /** Resolves once the recipients' write is under way, not when it is done. */
  add(recipients: Recipient[]): Promise<void>;
  complete(sharing: SmsSharing): Promise<void>;
}

/** A message record as a claim creates it; the claim adds its status and attempt. */
export type NewMessage = Omit<SmsMessage, 'status' | 'attempts' | 'updatedAt' | 'providerMessageId' | 'error'>;

/** How an attempt ended, for `finishMany`. */
export interface FinishedAttempt {
  id: string;
  attempt: number;
  status: 'sent' | 'retryable' | 'unknown' | 'failed';
  providerMessageId?: string;
  error?: string;
  at: Date;
  /** The message's segments: a `sent` outcome records them for the campaign report (reports/domain/tally.ts). */
  segments?: number;
}

/**
 * The per-(sharing, phone) message records. The claims are the at-most-once guard: a record is
 * created in state "sending" for exactly one caller, whatever Kafka redelivers; a record whose
 * previous attempt failed before the provider accepted it ("retryable") can be claimed again,
 * again by one caller only. Everything else answers null.
 */
export interface MessageRepository {
  /** The records that exist among `ids` (any order). */
  findMany(ids: string[]): Promise<SmsMessage[]>;
  /**
   * First claims in one write: each record is created "sending" unless it exists, in which case
   * its answer is null (whoever holds it decides; a retryable one goes through `claim`).
   */
  claimMany(msgs: NewMessage[]): Promise<(SmsMessage | null)[]>;
  /**
   * One claim, also of a record that exists and may be taken again ("retryable"), and with
   * `takeOverSending` of one still "sending" (its claimer may have died between claim and
   * answer): only for an idempotent provider, where a repeat is harmless.
   */
  claim(msg: NewMessage, opts?: { takeOverSending?: boolean }): Promise<SmsMessage | null>;
  /**
   * Stores records that need no claim (their provider is idempotent) with their outcome, in one
   * write; per record, false when it existed already (left as it was).
   */
  recordMany(msgs: SmsMessage[]): Promise<boolean[]>;
  /** Moves records the caller claimed (status "sending", same attempt) to their outcome, in one write. */
  finishMany(items: FinishedAttempt[]): Promise<void>;
  /**
   * Applies a delivery report; a final status ("delivered", "failed") is never overwritten. One
   * conditional update: only the report that changed the record gets it back (null otherwise),
   * and that update also marks its `sms.status` event as owed (an outbox in the record itself),
   * until `reportPublished`.
   */
  applyDeliveryReport(id: string, status: DeliveryStatus, at: Date, error?: DeliveryError): Promise<SmsMessage | null>;
  /** The record's report event went out: no longer owed. */
  reportPublished(id: string, status: DeliveryStatus): Promise<void>;
  /** Records whose report event is owed since `before` or earlier (its publish failed, or its process died), oldest first. */
  unpublishedReports(before: Date, limit: number): Promise<SmsMessage[]>;
  findById(id: string): Promise<SmsMessage | null>;
  /** Every record of the sharing, reminders' included. */
  listBySharing(sharingId: string): Promise<SmsMessage[]>;
  /**
   * A cancelled sharing: a "cancelled" record for each phone that has none yet (a later claim
   * finds it taken), and every retryable one cancelled. Answers the records it wrote (a phone a
   * dispatcher claimed first is not among them).
   */
  cancelUnclaimed(c: { accountId: string; sharingId: string; campaignId: string; phones: string[]; at: Date }): Promise<SmsMessage[]>;
  /** The sharing's first messages (not reminders) by status, in one pass over its index; statuses without one are absent. */
  firstsByStatus(sharingId: string): Promise<Partial<Record<MessageStatus, number>>>;
  /**
   * The phones of the sharing's first messages (not reminders) whose record has `status`, in
   * phone order after `after` ('' from the first), at most `limit`: a page of its recipients of
   * that status (index sharing_status_id). `near`, any of its phones, is where a read from the
   * first starts looking (a recipient near the lowest makes it cheap); the answer is the same
   * whatever it is.
   */
  firstsWithStatus(q: { sharingId: string; status: MessageStatus; after: string; limit: number; near?: string }): Promise<string[]>;
}

/** What a recipient's survey link is made of. */
export interface LinkActivation {
  accountId: string;
  channelId: string;
  phone: string;
  attributes: Record<string, string>;
  builtInResponses: Record<string, string>;
  /** Where it is sent from: the survey service keeps them with the link and copies them onto its answer. */
  campaignId: string;
  sharingId: string;
  messageId: string;
}

export interface SurveyLinks {
  /**
   * Upserts each customer and creates or re-activates the customer's link of the channel, for
   * one account in one call: each item its URL, or the error it failed with alone.
   */
  activateMany(items: LinkActivation[]): Promise<(string | Error)[]>;
  /**
   * The state of each phone's link of the channel, in order, activating nothing: `none` when the
   * channel has no link for that phone (normalized digits, as activated). Any number of phones.
   */
  statesOf(accountId: string, channelId: string, phones: string[]): Promise<SurveyLinkState[]>;
}

/** A recipient's survey link: still to be answered, answered, past its expiry, or never made. */
export type SurveyLinkState = 'active' | 'answered' | 'expired' | 'none';

/** The deployment's rules for phones (env.ts): how a number without a country code reads, and how many a sharing may have. */
export interface MessagingSettings {
  defaultRegion: string;
  maxPhones: number;
  /** The window of campaigns without their own; null: any time. */
  defaultSendWindow: SendWindow | null;
  /**
   * How previews and template warnings cost a text: the deployment provider's shift-table support
   * and a stand-in as long as a real short link (env.ts). Default: no shift table, and
   * DEFAULT_COST_SETTINGS (sms-text.ts).
   */
  cost?: Partial<CostSettings>;
}

/** `sms.dispatch`, one event per recipient, keyed by phone. */
export interface DispatchPublisher {
  batch(): DispatchBatch;
}

/** Events are prepared (encoded) as they are added; `send` publishes them all and resolves once all are acknowledged. */
export interface DispatchBatch {
  add(events: DispatchEvent[]): void;
  send(): Promise<void>;
}

/** Publishes `sms.status` when messages' statuses change, in one publish. */
export interface StatusEvents {
  changedMany(msgs: SmsMessage[]): Promise<void>;
}

export interface LinkShortener {
  /** The short URLs of `urls`, in order, made in one call (on the account's default domain when it has one). */
  shortenMany(urls: string[], accountId: string): Promise<string[]>;
  /** How many of the account's short links (by code) were followed at least once; others' and unknown codes count 0. */
  countClicked(accountId: string, codes: string[]): Promise<number>;
}

/** The survey service, as messaging needs it. */
export interface SurveyChannels {
  /** Creates the campaign's survey channel (kind SMS); answers its id. */
  createSmsChannel(c: {
    accountId: string;
    name: string;
    nodeId: string;
    nodeName: string;
    flowId: string;
    linkTtlDays: number;
  }): Promise<string>;
}

/** Who texted a phone, from the message records (an inbound STOP applies to each of them). */
export interface TextedPhones {
  /** The accounts with a message record to the phone (normalized), each once. */
  accountsThatTexted(phone: string): Promise<string[]>;
}
