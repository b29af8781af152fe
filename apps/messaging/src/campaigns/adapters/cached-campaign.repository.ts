import type { Page, PageQuery } from '@feedback/kit-core';
import { LRUCache } from 'lru-cache';
import type { CampaignRepository } from '../ports.js';
import type { SmsCampaign } from '../../shared/domain/sharing.js';

/**
 * Keeps campaign lookups off the database on the dispatch path: every sms.dispatch event looks
 * its campaign up (5,000 recipients, one campaign). A found campaign is kept for `ttlMs` (its
 * delivery rules may change: this process sees an update at once, other replicas within
 * `ttlMs`), the least recently used dropped first beyond `maxEntries`; a miss is not kept, since
 * the campaign may be created right after.
 */
export class CachedCampaignRepository implements CampaignRepository {
  /** By `<account>/<campaign>`; none when `ttlMs` keeps nothing. */
  private readonly cache: LRUCache<string, SmsCampaign> | null;

  constructor(
    private readonly inner: CampaignRepository,
    opts: { maxEntries: number; ttlMs: number; now?: () => number },
  ) {
    // lru-cache keeps an entry while its age is at most `ttl` (and reads a ttl or a start of 0 as for
    // ever): ours go once they are ttlMs old, and its clock is ours 1 ms on (ages unchanged).
    this.cache =
      opts.ttlMs > 1
        ? new LRUCache({ max: opts.maxEntries, ttl: opts.ttlMs - 1, ttlResolution: 0, perf: { now: shifted(opts.now ?? Date.now) } })
        : null;
  }

  async findById(accountId: string, id: string): Promise<SmsCampaign | null> {
    const key = `${accountId}/${id}`;
    const hit = this.cache?.get(key);
    if (hit) return hit;
    const campaign = await this.inner.findById(accountId, id);
    if (campaign) this.cache?.set(key, campaign);
    return campaign;
  }

  insert(campaign: SmsCampaign): Promise<void> {
    return this.inner.insert(campaign);
  }

  async update(accountId: string, id: string, changes: Parameters<CampaignRepository['update']>[2]): Promise<SmsCampaign | null> {
    this.cache?.delete(`${accountId}/${id}`);
    return this.inner.update(accountId, id, changes);
  }

  page(accountId: string, page: PageQuery): Promise<Page<SmsCampaign>> {
    return this.inner.page(accountId, page);
  }
}

const shifted = (now: () => number) => () => now() + 1;
