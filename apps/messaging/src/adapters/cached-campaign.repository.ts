import type { CampaignRepository } from '../domain/ports.js';
import type { SmsCampaign } from '../domain/sharing.js';

/**
 * Keeps campaign lookups off the database on the dispatch path: every sms.dispatch event looks
 * its campaign up (5,000 recipients, one campaign). A campaign never changes once created (there
 * is no update), so a found one is kept, the oldest dropped first beyond `maxEntries`; a miss is
 * not kept, since the campaign may be created right after.
 */
export class CachedCampaignRepository implements CampaignRepository {
  private readonly cache = new Map<string, SmsCampaign>();

  constructor(
    private readonly inner: CampaignRepository,
    private readonly opts: { maxEntries: number },
  ) {}

  async findById(accountId: string, id: string): Promise<SmsCampaign | null> {
    const key = `${accountId}/${id}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const campaign = await this.inner.findById(accountId, id);
    if (campaign) {
      if (this.cache.size >= this.opts.maxEntries) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, campaign);
    }
    return campaign;
  }

  insert(campaign: SmsCampaign): Promise<void> {
    return this.inner.insert(campaign);
  }

  listByAccount(accountId: string, limit: number): Promise<SmsCampaign[]> {
    return this.inner.listByAccount(accountId, limit);
  }
}
