import type { Page, PageQuery } from '@feedback/kit-core';
import type { SmsCampaign } from '../shared/domain/sharing.js';
import type { Clock, MessagingSettings, SurveyChannels } from '../shared/ports.js';

export interface CampaignRepository {
  insert(campaign: SmsCampaign): Promise<void>;
  /** Only the account's own campaign: a foreign id reads as missing. */
  findById(accountId: string, id: string): Promise<SmsCampaign | null>;
  /** A page of the account's campaigns, newest first (keyset on created_at, then id). */
  page(accountId: string, page: PageQuery): Promise<Page<SmsCampaign>>;
  /** Replaces the given delivery rules; null when the account has no such campaign. */
  update(
    accountId: string,
    id: string,
    changes: Partial<Pick<SmsCampaign, 'sendWindow' | 'reminders' | 'transliterate'>>,
  ): Promise<SmsCampaign | null>;
}

/** What the campaign use cases are given (wiring.ts builds it). */
export interface CampaignDeps {
  campaigns: CampaignRepository;
  channels: SurveyChannels;
  clock: Clock;
  newId: () => string;
  /** The cost warnings of a campaign's templates. */
  settings: MessagingSettings;
}
