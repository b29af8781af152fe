import type { Clock, Logger, Page, PageQuery } from '@feedback/kit-core';
import type { Attempt, Delivery, DeliveryStatus, Endpoint, SealedSecret } from './webhook.js';

/** Endpoints of accounts. Lookups by account answer null for another account's id. */
export interface EndpointRepository {
  insert(endpoint: Endpoint): Promise<void>;
  find(accountId: string, id: string): Promise<Endpoint | null>;
  /** The sender's lookup (a delivery already names its account's endpoint). */
  findById(id: string): Promise<Endpoint | null>;
  /** Newest first (kit-core paging). */
  list(accountId: string, page: PageQuery): Promise<Page<Endpoint>>;
  /** Enabled endpoints of the account subscribed to the type. */
  subscribed(accountId: string, type: string): Promise<Endpoint[]>;
  update(
    accountId: string,
    id: string,
    patch: Partial<Pick<Endpoint, 'url' | 'events' | 'enabled' | 'description' | 'disabledReason' | 'secrets' | 'failingSince'>>,
    now: Date,
    /** Changes nothing (answers null) if the endpoint's disabled reason is this one. */
    guard?: { unlessDisabledReason: string },
  ): Promise<Endpoint | null>;
  delete(accountId: string, id: string): Promise<boolean>;
  /** How many endpoints the account has. */
  count(accountId: string): Promise<number>;
  /** Sets failingSince to `at` unless set; answers the value it has now. */
  markFailing(id: string, at: Date): Promise<Date>;
  markHealthy(id: string): Promise<void>;
  /** Turns it off with the service's reason; one the operator turned off keeps its reason. */
  disable(id: string, reason: string, now: Date): Promise<void>;
}

/** Test events sent per account, counted per window (atomically: racing requests each count). */
export interface TestSendCounter {
  /** Counts one more for the account in the window starting at `windowStart`; answers the window's count. */
  hit(accountId: string, windowStart: Date, windowEnd: Date): Promise<number>;
}

export interface AttemptOutcome {
  attempt: Attempt | null;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  retryIndex: number;
  note?: string;
}

export interface DeliveryRepository {
  /**
   * Inserts those not there yet (unique on endpoint and event id); answers the new ones. With a
   * claim, they are stored already claimed by it until `heldUntil`, as claimDue would leave them.
   */
  insertNew(deliveries: Delivery[], claim?: { claimId: string; heldUntil: Date }): Promise<Delivery[]>;
  find(accountId: string, endpointId: string, id: string): Promise<Delivery | null>;
  /** Newest first (kit-core paging). */
  list(accountId: string, endpointId: string, page: PageQuery): Promise<Page<Delivery>>;
  /**
   * Takes up to `limit` of the oldest due pending deliveries for `leaseMs` under `claimId`
   * (atomically per delivery: of several claimers, one gets each); a claim not finished by then is
   * due again, so a killed sender's work is retaken. Answers those this claim took.
   */
  claimDue(now: Date, leaseMs: number, claimId: string, limit: number): Promise<Delivery[]>;
  /** Records the outcome if the claim is still this one's; false when it was retaken or replayed meanwhile. */
  finish(id: string, claimId: string, outcome: AttemptOutcome): Promise<boolean>;
  /** Pending again, due now, from the schedule's start; keeps its attempts. */
  replay(accountId: string, endpointId: string, id: string, now: Date): Promise<Delivery | null>;
  deleteForEndpoint(endpointId: string): Promise<void>;
}

/** Deliveries taken by one claim, held until `heldUntil` (the lease's end). */
export interface Claim {
  claimId: string;
  deliveries: Delivery[];
  heldUntil: Date;
}

/**
 * The sender of this process, as the events consumer hands it new deliveries before they are
 * stored: their first attempt starts at once, and a delivery stored with its outcome costs the
 * database one write, not a store and an update (event.use-cases.ts).
 */
export interface DeliveryHandoff {
  /** How many more deliveries it takes on now (0 while it is busy enough). */
  room(): number;
  /** Starts the first attempt of each (not stored yet), under `claim` should it outlast the wait. */
  attemptNew(deliveries: Delivery[], claim: { claimId: string; heldUntil: Date }): NewAttempts;
  /** Deliveries were stored due now without a claim: look for them now. */
  wake(): void;
  /**
   * Whether this delivery was handed to attemptNew lately (an event published twice: its second
   * copy arrives in a later batch, after the first is stored): it goes to the store only, where
   * the existing delivery makes it nothing.
   */
  attemptedLately?(deliveryId: string): boolean;
}

/** First attempts of new deliveries, as the events consumer waits for them. */
export interface NewAttempts {
  /**
   * Once every attempt ended, or the handoff's wait is over: each one's outcome, or null for an
   * attempt still under way (or failed without one), which is then stored claimed and writes its
   * outcome itself once told it is stored.
   */
  outcomes: Promise<(AttemptOutcome | null)[]>;
  /** The deliveries were stored (true), or their store failed (false: outcomes of those under way are dropped). */
  stored(ok: boolean): void;
}

/** Seals secrets at rest (AES-256-GCM); `context` binds a sealed value to its endpoint. */
export interface SecretCipher {
  seal(plaintext: string, context: string): SealedSecret;
  open(sealed: SealedSecret, context: string): string;
}

export interface SendResult {
  /** 0 when no answer came. */
  statusCode: number;
  error: string;
  latencyMs: number;
  responseBody: string;
}

/** POSTs a signed body; never throws (a refused address or timeout is an error result). */
export interface WebhookTransport {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}

/** The deployment's rule on target URLs (scheme, the addresses it resolves to): a reason to refuse, or null. */
export type UrlPolicy = (url: URL) => Promise<string | null>;

export interface WebhookSettings {
  /** Delays after each failed attempt (ms). */
  retrySchedule: readonly number[];
  /** An endpoint failing continuously this long is disabled. */
  disableAfterMs: number;
  /** How long a rotated-out secret keeps signing. */
  rotationOverlapMs: number;
  /** How long a claimed delivery is held by its sender. */
  leaseMs: number;
  /** Endpoints an account may have (WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT). */
  maxEndpointsPerAccount: number;
  /** Test events an account may send per minute (WEBHOOKS_TEST_SENDS_PER_MINUTE). */
  testSendsPerMinute: number;
}

/** What the webhooks service's use cases are given; wiring.ts builds the real one. */
export interface WebhooksDeps {
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  testSends: TestSendCounter;
  cipher: SecretCipher;
  transport: WebhookTransport;
  urlPolicy: UrlPolicy;
  settings: WebhookSettings;
  clock: Clock;
  newId: () => string;
  random: () => number;
  logger: Logger;
}
