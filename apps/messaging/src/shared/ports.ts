import type { Clock, Logger } from '@feedback/kit-core';
import type { CsvRecord } from '../csv-workflow/domain/customer-csv.js';
import type { CsvImport, DirectoryBinding } from '../csv-workflow/domain/directory-binding.js';
import type { DispatchEvent, Recipient, SmsCampaign, SmsSharing } from './domain/sharing.js';
import type { AccountProvider, AccountProviderSettings } from '../providers/domain/account-provider.js';
import type { DeliveryStatus, MessageStatus, ReportRule, SettledStatus, SmsMessage } from './domain/sms-message.js';
import type { SmsEncoding } from './domain/sms-encoding.js';
import type { CostSettings } from './domain/sms-text.js';
import type { SendWindow } from '../scheduling/domain/send-window.js';
import type { OptOutPage, OptOutSource } from '../opt-outs/domain/opt-out.js';

export interface CampaignRepository {
  insert(campaign: SmsCampaign): Promise<void>;
  /** Only the account's own campaign: a foreign id reads as missing. */
  findById(accountId: string, id: string): Promise<SmsCampaign | null>;
  /** The account's campaigns, newest first. */
  listByAccount(accountId: string, limit: number): Promise<SmsCampaign[]>;
  /** Replaces the given delivery rules; null when the account has no such campaign. */
  update(
    accountId: string,
    id: string,
    changes: Partial<Pick<SmsCampaign, 'sendWindow' | 'reminders' | 'transliterate'>>,
  ): Promise<SmsCampaign | null>;
}

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
}

/**
 * A step of a sharing that waits for its time: its first messages (`reminder` 0, a sharing with
 * send_at or made outside the send window) or a reminder. Its id is `<sharing id>.j<reminder>`.
 */
export interface SharingJob {
  id: string;
  accountId: string;
  sharingId: string;
  campaignId: string;
  reminder: number;
  dueAt: Date;
}

/**
 * The waiting steps, shared by every messaging process: a step is taken by one process at a
 * time under a lease, and taken again by another when its taker stops renewing it (a crash), so
 * it runs to its end whatever restarts. Its messages' claims keep a step run twice from texting
 * anyone twice.
 */
export interface JobRepository {
  /** Stores steps unless they exist (a repeated sharing adds nothing). */
  schedule(jobs: SharingJob[]): Promise<void>;
  /**
   * The scheduler's lease, held by one process at a time: the holder alone releases steps, so
   * their pace is the deployment's, not one per process. True while `owner` holds it.
   */
  lead(owner: string, now: Date, until: Date): Promise<boolean>;
  /** Takes a step due by `now` for `owner` until `leaseUntil`, or one whose taker's lease ran out. */
  claimDue(now: Date, owner: string, leaseUntil: Date): Promise<SharingJob | null>;
  /** Extends the step's lease; false when it is no longer the owner's (cancelled, or taken over). */
  renew(id: string, owner: string, leaseUntil: Date): Promise<boolean>;
  /** Back to waiting, until `dueAt` (the send window's next opening). */
  postpone(id: string, owner: string, dueAt: Date): Promise<void>;
  finish(id: string, owner: string): Promise<void>;
  /** Cancels the sharing's steps that have not finished; answers how many. */
  cancelBySharing(sharingId: string): Promise<number>;
}

/** Holds back releases to the provider's rate: resolves once `count` messages may go. */
export interface ReleasePacer {
  take(count: number): Promise<void>;
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

/** `sms.dispatch`, one event per recipient, keyed by phone. */
export interface DispatchPublisher {
  batch(): DispatchBatch;
}

/** Events are prepared (encoded) as they are added; `send` publishes them all and resolves once all are acknowledged. */
export interface DispatchBatch {
  add(events: DispatchEvent[]): void;
  send(): Promise<void>;
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
  /** Applies a delivery report; a final status ("delivered", "failed") is never overwritten. */
  applyDeliveryReport(id: string, status: DeliveryStatus, at: Date): Promise<SmsMessage | null>;
  findById(id: string): Promise<SmsMessage | null>;
  /** Every record of the sharing, reminders' included. */
  listBySharing(sharingId: string): Promise<SmsMessage[]>;
  /**
   * A cancelled sharing: a "cancelled" record for each phone that has none yet (a later claim
   * finds it taken), and every retryable one cancelled.
   */
  cancelUnclaimed(c: { accountId: string; sharingId: string; campaignId: string; phones: string[]; at: Date }): Promise<void>;
  /** The sharing's first messages (not reminders) by status, in one pass over its index; statuses without one are absent. */
  firstsByStatus(sharingId: string): Promise<Partial<Record<MessageStatus, number>>>;
}

/** What is handed to a provider. */
export interface OutgoingSms {
  /** Our id of the message, echoed in delivery reports. */
  messageId: string;
  accountId: string;
  sharingId: string;
  /** E.164 digits without "+". */
  to: string;
  text: string;
  /** What the text costs as this provider sends it (sms-encoding.ts); dispatch always sets it, a reply outside a sharing may not. */
  encoding?: SmsEncoding;
  segments?: number;
}

/**
 * The outcome of one hand-over:
 * - accepted: the provider took the message;
 * - rejected: it refused it before taking it (safe to try again when `retriable`);
 * - unknown: the request may have reached it (a timeout after sending): never re-sent.
 */
export type ProviderResult =
  | { outcome: 'accepted'; providerMessageId?: string }
  | { outcome: 'rejected'; retriable: boolean; reason: string }
  | { outcome: 'unknown'; reason: string };

export interface SmsProvider {
  readonly name: string;
  /**
   * The provider itself records a message id once, whatever it is handed (the recording provider): a
   * hand-over interrupted by a crash may then be repeated, which makes it exactly once there.
   */
  readonly idempotent?: boolean;
  send(sms: OutgoingSms): Promise<ProviderResult>;
  /** Many hand-overs in one call, results in order; providers without it get `send` each. */
  sendMany?(sms: OutgoingSms[]): Promise<ProviderResult[]>;
  /** How its delivery reports read; recorded on each message it is handed (none: the deployment's rule). */
  readonly deliveryRule?: ReportRule;
  /**
   * It sends the Turkish national language single shift table (3GPP TS 23.038), so a text with
   * ğ ı ş İ Ğ Ş ç goes as gsm7-tr (155 / 149 characters a segment) instead of ucs2 (70 / 67).
   * Declared by configuration: SMS_TURKISH_SHIFT_TABLE for the deployment's, an account's own
   * provider by its `turkish_shift_table` setting.
   */
  readonly turkishShiftTable?: boolean;
}

/**
 * Which provider sends an account's SMS: its own (account-provider.use-cases.ts) when it has one,
 * else the deployment's. Asked before a message is claimed, so the at-most-once claim is taken
 * for the provider that then gets the message. A throw (its stored provider unreadable) leaves
 * the event to be retried, never to another provider.
 */
export interface SmsProviderResolver {
  forAccount(accountId: string): Promise<SmsProvider>;
}

/** Drops what this process remembers of an account's provider, once it was replaced or removed. */
export interface ProviderCache {
  forget(accountId: string): void;
}

/** An account's own providers, their settings encrypted at rest. */
export interface AccountProviderRepository {
  /**
   * Stores the account's provider, replacing its previous one (whose createdAt it keeps). Throws
   * UNAVAILABLE when the deployment has no key to encrypt it with: settings are never stored in clear.
   */
  put(p: { accountId: string; settings: AccountProviderSettings; at: Date }): Promise<AccountProvider>;
  find(accountId: string): Promise<AccountProvider | null>;
  /** False when the account had none. */
  delete(accountId: string): Promise<boolean>;
}

/** The settings format of an account's provider (adapters/http/account-provider.config.ts). */
export interface ProviderSettingsFormat {
  /** Validated, defaults filled in; anything invalid throws INVALID_ARGUMENT naming the field. */
  parse(json: string): AccountProviderSettings;
}

export type { Clock } from '@feedback/kit-core';

/** What the recording provider recorded (GET /admin/v1/accounts/{account_id}/sms_messages). */
export interface RecordedMessage {
  messageId: string;
  accountId: string;
  sharingId: string;
  phone: string;
  text: string;
  status: string;
  createdAt: Date;
  /** Absent on messages recorded before the cost was kept. */
  encoding?: SmsEncoding;
  segments?: number;
}

export interface RecordedMessagePage {
  items: RecordedMessage[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface RecordedMessages {
  /** Newest first; `phone` normalized digits. */
  list(q: { accountId: string; phone?: string; limit: number; cursor?: string }): Promise<RecordedMessagePage>;
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

/** What a recipient's survey link is made of. */
export interface LinkActivation {
  accountId: string;
  channelId: string;
  phone: string;
  attributes: Record<string, string>;
  builtInResponses: Record<string, string>;
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

export interface LinkShortener {
  /** The short URLs of `urls`, in order, made in one call (on the account's default domain when it has one). */
  shortenMany(urls: string[], accountId: string): Promise<string[]>;
  /** How many of the account's short links (by code) were followed at least once; others' and unknown codes count 0. */
  countClicked(accountId: string, codes: string[]): Promise<number>;
}

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

/** Publishes `sms.status` when messages' statuses change, in one publish. */
export interface StatusEvents {
  changedMany(msgs: SmsMessage[]): Promise<void>;
}

export interface BindingRepository {
  /** One binding per directory and file name: a second bind replaces the campaign. */
  upsert(b: DirectoryBinding): Promise<DirectoryBinding>;
  find(directoryId: string, fileName: string): Promise<DirectoryBinding | null>;
  /** The campaign's bindings, newest first. */
  listByCampaign(accountId: string, campaignId: string): Promise<DirectoryBinding[]>;
  /** Removes the campaign's binding of the directory and name; false when it has none. */
  remove(b: Pick<DirectoryBinding, 'accountId' | 'campaignId' | 'directoryId' | 'fileName'>): Promise<boolean>;
}

export interface CsvImportLog {
  /** Once per file; a repeat keeps the first record. */
  record(i: CsvImport): Promise<void>;
  findByFile(fileId: string): Promise<CsvImport | null>;
}

/** A file claimed for a workflow. */
export interface ClaimedFile {
  id: string;
  accountId: string;
  directoryId: string;
  filename: string;
  blobToken: string;
  size: number;
}

/** The file service, as the CSV workflow needs it. */
export interface WorkflowFiles {
  directoryExists(accountId: string, directoryId: string): Promise<boolean>;
  /** The latest unprocessed file of the name, claimed for `claimer`; null when none (docs/api.md "Workflows on files"). */
  claimLatest(q: {
    accountId: string;
    directoryId: string;
    filename: string;
    claimer: string;
  }): Promise<{ file: ClaimedFile | null; superseded: number }>;
  /** The file's CSV records, streamed; a file that is not CSV throws CsvFormatError. */
  records(file: ClaimedFile): AsyncIterable<CsvRecord>;
  complete(q: { accountId: string; fileId: string; claimer: string; outcome: 'processed' | 'failed' }): Promise<void>;
}

/** The accounts' suppression lists (collection `sms_opt_outs`, one entry per account and phone). */
export interface OptOutRepository {
  /** Puts the phones (normalized) on the account's list; per phone, false when it was there already (left as it was). */
  addMany(e: { accountId: string; phones: string[]; source: OptOutSource; at: Date }): Promise<boolean[]>;
  /** The phones among `phones` that are on the account's list, in one indexed query. */
  findOptedOut(accountId: string, phones: string[]): Promise<Set<string>>;
  /** Newest first; `phone` normalized digits. */
  list(q: { accountId: string; phone?: string; limit: number; cursor?: string }): Promise<OptOutPage>;
  /** False when the phone was not on the account's list. */
  remove(accountId: string, phone: string): Promise<boolean>;
}

/** Who texted a phone, from the message records (an inbound STOP applies to each of them). */
export interface TextedPhones {
  /** The accounts with a message record to the phone (normalized), each once. */
  accountsThatTexted(phone: string): Promise<string[]>;
}

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

/** What the messaging service's use cases are given; wiring.ts builds the real one. */
export interface MessagingDeps {
  campaigns: CampaignRepository;
  sharings: SharingRepository;
  messages: MessageRepository;
  recordedMessages: RecordedMessages;
  dispatch: DispatchPublisher;
  statusEvents: StatusEvents;
  /** `sharing.completed`, raised by the scheduler leader's sweep (sharing-completion.use-cases.ts). */
  completions: CompletionEvents;
  /** The account's own provider or the deployment's. */
  providers: SmsProviderResolver;
  providerCache: ProviderCache;
  accountProviders: AccountProviderRepository;
  providerSettings: ProviderSettingsFormat;
  channels: SurveyChannels;
  links: SurveyLinks;
  shortener: LinkShortener;
  bindings: BindingRepository;
  imports: CsvImportLog;
  files: WorkflowFiles;
  jobs: JobRepository;
  pacer: ReleasePacer;
  clock: Clock;
  newId: () => string;
  logger: Logger;
  settings: MessagingSettings;
  /** The accounts' suppression lists: sharings and the dispatcher leave their phones out. */
  optOuts: OptOutRepository;
  textedPhones: TextedPhones;
  /** Hand-overs to a slow provider that is not idempotent, left running (dispatch.use-cases.ts); none: every hand-over is awaited. */
  handOvers?: HandOverTracker;
}

/**
 * Hand-overs a dispatch leaves running (docs/decisions.md "Fair dispatch between accounts"): a
 * provider that is not idempotent and answers slowly holds only its own messages, not the
 * consumer's partitions.
 */
export interface HandOverTracker {
  /** How long a dispatch waits for such a hand-over before it leaves it running. */
  budgetMs: number;
  /** Attempts of a message a provider refused for now before it is left `retryable` (SMS_DISPATCH_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Takes over a running hand-over; false at capacity (the dispatch then waits for it). */
  adopt(work: Promise<void>): boolean;
  /** Runs `fn` after `ms` (a retry's backoff); at shutdown at once. */
  later(ms: number, fn: () => Promise<void>): void;
}
