import type { Clock } from '@feedback/kit-core';
import type { CampaignRepository } from '../campaigns/ports.js';
import type { DispatchPublisher } from '../shared/ports.js';
import type { MessagingSettings, SharingRepository } from '../shared/ports.js';

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

/** What the scheduler's steps are given (wiring.ts builds it). */
export interface SchedulingDeps {
  jobs: JobRepository;
  campaigns: CampaignRepository;
  sharings: SharingRepository;
  dispatch: DispatchPublisher;
  pacer: ReleasePacer;
  clock: Clock;
  /** The send window of campaigns without their own. */
  settings: MessagingSettings;
}
