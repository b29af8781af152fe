import { AppError, errors } from '@feedback/kit-core';
import { LRUCache } from 'lru-cache';

/**
 * The messaging service's list of an account's SMS campaigns, as far as the responses API needs
 * it: each campaign's survey channel. Paged or not (a reply without next_page_token is the last).
 */
export interface CampaignsPort {
  listSmsCampaigns(req: {
    accountId: string;
    pageSize?: number;
    pageToken?: string;
  }): Promise<{ campaigns: Array<{ id: string; channelId: string }>; nextPageToken?: string }>;
}

const PAGE_SIZE = 200;
/** 10,000 campaigns: an account with more is not looked through further (its campaign ids 404). */
const MAX_PAGES = 50;

/**
 * An SMS campaign is a survey channel plus a template, so its responses are its channel's. The
 * survey service knows channels only, and messaging knows which channel is a campaign's: a
 * campaign's channel never changes, so what the lists showed is kept (per account) and a miss
 * reads them again. A campaign of another account is never found: the list is the caller's.
 */
export class CampaignChannels {
  private readonly known = new LRUCache<string, string>({ max: 10_000, ttl: 10 * 60_000 });

  constructor(private readonly port: CampaignsPort) {}

  /** The channel of the account's campaign, or undefined without a look-up when it is not known yet. */
  cached(accountId: string, campaignId: string): string | undefined {
    return this.known.get(`${accountId}/${campaignId.toLowerCase()}`);
  }

  /** The channel of the account's campaign; null when the account has no such campaign. */
  async channelOf(accountId: string, campaignId: string): Promise<string | null> {
    const id = campaignId.toLowerCase();
    const hit = this.cached(accountId, id);
    if (hit) return hit;
    let pageToken = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await this.port.listSmsCampaigns({ accountId, pageSize: PAGE_SIZE, pageToken });
      let found: string | null = null;
      for (const c of res.campaigns) {
        this.known.set(`${accountId}/${c.id}`, c.channelId);
        if (c.id === id) found = c.channelId;
      }
      if (found) return found;
      if (!res.nextPageToken) return null;
      pageToken = res.nextPageToken;
    }
    return null;
  }
}

/** The filters that name where a response came from, as the query gives them. */
export interface ChannelFilters {
  channel_id?: string | undefined;
  campaign_id?: string | undefined;
}

/**
 * The survey channel the filters select ('' for every one): `campaign_id` is its campaign's
 * channel (404 naming campaign_id for another account's or an unknown campaign); `channel_id` is
 * a channel or, as docs/api.md has always said, an SMS campaign. Both given must name the same.
 */
export async function channelOfFilters(campaigns: CampaignChannels, accountId: string, q: ChannelFilters): Promise<string> {
  if (q.campaign_id) {
    const channel = await campaigns.channelOf(accountId, q.campaign_id);
    if (!channel) throw errors.notFound('campaign_id', q.campaign_id);
    const given = q.channel_id?.toLowerCase();
    if (given && given !== channel && given !== q.campaign_id.toLowerCase())
      throw errors.invalid({ campaign_id: 'names another channel than channel_id: give one of them' });
    return channel;
  }
  return q.channel_id ? (campaigns.cached(accountId, q.channel_id) ?? q.channel_id) : '';
}

const notFoundChannel = (err: unknown) => err instanceof AppError && err.kind === 'not_found' && 'channel_id' in err.fields;

/**
 * Runs `call` with the filters' channel; when the survey service does not know a `channel_id`
 * (NOT_FOUND naming it), reads it as a campaign id and runs `call` again with its channel.
 */
export async function withChannel<T>(
  campaigns: CampaignChannels,
  accountId: string,
  q: ChannelFilters,
  call: (channelId: string) => Promise<T>,
): Promise<T> {
  const channelId = await channelOfFilters(campaigns, accountId, q);
  try {
    return await call(channelId);
  } catch (err) {
    if (!q.channel_id || q.campaign_id || !notFoundChannel(err)) throw err;
    const channel = await campaigns.channelOf(accountId, q.channel_id);
    if (!channel) throw err;
    return call(channel);
  }
}
