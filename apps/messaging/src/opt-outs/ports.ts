import type { Logger, PageQuery } from '@feedback/kit-core';
import type { Clock, MessagingSettings, TextedPhones } from '../shared/ports.js';
import type { OptOutPage, OptOutSource } from './domain/opt-out.js';

/** The accounts' suppression lists (collection `sms_opt_outs`, one entry per account and phone). */
export interface OptOutRepository {
  /** Puts the phones (normalized) on the account's list; per phone, false when it was there already (left as it was). */
  addMany(e: { accountId: string; phones: string[]; source: OptOutSource; at: Date }): Promise<boolean[]>;
  /** The phones among `phones` that are on the account's list, in one indexed query. */
  findOptedOut(accountId: string, phones: string[]): Promise<Set<string>>;
  /** Newest first; `phone` normalized digits. */
  list(q: { accountId: string; phone?: string; page: PageQuery }): Promise<OptOutPage>;
  /** False when the phone was not on the account's list. */
  remove(accountId: string, phone: string): Promise<boolean>;
}

/** What the opt-out use cases are given (wiring.ts builds it). */
export interface OptOutDeps {
  optOuts: OptOutRepository;
  /** An inbound STOP opts its sender out of every account that texted it. */
  textedPhones: TextedPhones;
  clock: Clock;
  settings: MessagingSettings;
  logger: Logger;
}
