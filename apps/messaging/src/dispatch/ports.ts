import type { CampaignRepository } from '../campaigns/ports.js';
import type { OptOutRepository } from '../opt-outs/ports.js';
import type { SmsProviderResolver } from '../providers/ports.js';
import type {
  Clock,
  DispatchPublisher,
  LinkShortener,
  MessageRepository,
  SharingRepository,
  StatusEvents,
  SurveyLinks,
} from '../shared/ports.js';

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

/** What dispatchSms is given (wiring.ts builds it). */
export interface DispatchDeps {
  campaigns: CampaignRepository;
  /** Where the first messages a batch settled are noted (sharing.completed's hint), and a reminder's recipients. */
  sharings: SharingRepository;
  messages: MessageRepository;
  links: SurveyLinks;
  shortener: LinkShortener;
  /** The account's own provider or the deployment's. */
  providers: SmsProviderResolver;
  statusEvents: StatusEvents;
  /** The accounts' suppression lists: a listed phone is recorded `opted_out`, never sent. */
  optOuts: OptOutRepository;
  clock: Clock;
  /**
   * Hand-overs to a slow provider that is not idempotent, left running, and where a refusal for
   * now is published again (dispatch.use-cases.ts); none: every hand-over is awaited.
   */
  handOvers?: { tracker: HandOverTracker; republish: DispatchPublisher };
}
