import type { SmsEncoding } from '../shared/domain/sms-encoding.js';
import type { ReportRule } from '../shared/domain/sms-message.js';
import type { Clock } from '../shared/ports.js';
import type { AccountProvider, AccountProviderSettings } from './domain/account-provider.js';

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

/** What an account's own provider's use cases are given (wiring.ts builds it). */
export interface ProviderDeps {
  accountProviders: AccountProviderRepository;
  providerSettings: ProviderSettingsFormat;
  providerCache: ProviderCache;
  clock: Clock;
}
