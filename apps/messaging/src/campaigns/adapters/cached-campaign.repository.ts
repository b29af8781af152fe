import type { CampaignRepository } from '../ports.js';
import type { SmsCampaign } from '../../shared/domain/sharing.js';

/**
 * Keeps campaign lookups off the database on the dispatch path: every sms.dispatch event looks
 * its campaign up (5,000 recipients, one campaign). A found campaign is kept for `ttlMs` (its
 * delivery rules may change: this process sees an update at once, other replicas within
 * `ttlMs`), the oldest dropped first beyond `maxEntries`; a miss is not kept, since the
 * campaign may be created right after.
 */
export class CachedCampaignRepository implements CampaignRepository {
  private readonly cache = new Map<string, { campaign: SmsCampaign; until: number }>();

  constructor(
    private readonly inner: CampaignRepository,
    private readonly opts: { maxEntries: number; ttlMs: number; now?: () => number },
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  async findById(accountId: string, id: string): Promise<SmsCampaign | null> {
    const key = `${accountId}/${id}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > this.now()) return hit.campaign;
    this.cache.delete(key);
    const campaign = await this.inner.findById(accountId, id);
    if (campaign) {
      if (this.cache.size >= this.opts.maxEntries) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, { campaign, until: this.now() + this.opts.ttlMs });
    }
    return campaign;
  }

  insert(campaign: SmsCampaign): Promise<void> {
    return this.inner.insert(campaign);
  }

  async update(accountId: string, id: string, changes: Parameters<CampaignRepository['update']>[2]): Promise<SmsCampaign | null> {
    this.cache.delete(`${accountId}/${id}`);
    return this.inner.update(accountId, id, changes);
  }

  listByAccount(accountId: string, limit: number): Promise<SmsCampaign[]> {
    return this.inner.listByAccount(accountId, limit);
  }
}
