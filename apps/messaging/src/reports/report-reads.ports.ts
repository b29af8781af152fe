import type { CampaignRepository } from '../campaigns/ports.js';
import type { Clock, SharingRepository } from '../shared/ports.js';
import type { ReportTotals } from './domain/report-totals.js';

/** One campaign counter document (`campaign_tallies`): a 15-minute bucket (UTC) of the campaign. */
export interface CampaignTallyRow extends ReportTotals {
  start: Date;
  promoters: number;
  passives: number;
  detractors: number;
}

/** The counter documents the relay keeps (read only here; absent counters read as 0). */
export interface TallyReader {
  /** The campaign's buckets starting in [from, to), oldest first. */
  campaignBuckets(accountId: string, campaignId: string, from: Date, to: Date): Promise<CampaignTallyRow[]>;
  /** The totals of those of the sharings that have a counter document yet, by sharing id: one read. */
  sharingTotals(accountId: string, sharingIds: string[]): Promise<Map<string, ReportTotals>>;
}

/** What the report's read side is given (wiring.ts builds it). */
export interface ReportReadDeps {
  campaigns: CampaignRepository;
  sharings: SharingRepository;
  tallies: TallyReader;
  clock: Clock;
}
