import type { Clock } from '@feedback/kit-core';
import type { SmsCampaign } from '../shared/domain/sharing.js';
import type { MessagingSettings } from '../shared/ports.js';

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

/** What the campaign use cases are given (wiring.ts builds it). */
export interface CampaignDeps {
  campaigns: CampaignRepository;
  channels: SurveyChannels;
  clock: Clock;
  newId: () => string;
  /** The cost warnings of a campaign's templates. */
  settings: MessagingSettings;
}
