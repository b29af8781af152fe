import { describe, expect, it } from 'vitest';
import { CachedCampaignRepository } from '../src/campaigns/adapters/cached-campaign.repository.js';
import { campaignOf, MemoryCampaigns } from './fakes/memory-deps.js';

const campaign = (id: string) => campaignOf({ id, accountId: 'acc', createdAt: new Date('2026-11-26T10:00:00Z') });

/** The campaigns in memory, their reads counted. */
function counted() {
  const inner = new MemoryCampaigns();
  let reads = 0;
  const findById = inner.findById.bind(inner);
  inner.findById = async (accountId, id) => (reads++, findById(accountId, id));
  return { inner, reads: () => reads };
}

describe('the cached campaign repository', () => {
  it('reads a found campaign once, never keeps a miss, and answers a foreign one as missing', async () => {
    const { inner, reads } = counted();
    const cached = new CachedCampaignRepository(inner, { ttlMs: 60_000, maxEntries: 10 });
    expect(await cached.findById('acc', 'c1')).toBeNull();
    await cached.insert(campaign('c1'));
    expect(await cached.findById('acc', 'c1')).toMatchObject({ id: 'c1' });
    expect(await cached.findById('acc', 'c1')).toMatchObject({ id: 'c1' });
    expect(reads()).toBe(2);
    expect(await cached.findById('other', 'c1')).toBeNull();
    expect((await cached.page('acc', { list: 'sms_campaigns', size: 10, after: null })).items).toHaveLength(1);
  });

  it('drops the oldest entry beyond its size', async () => {
    const { inner, reads } = counted();
    const cached = new CachedCampaignRepository(inner, { ttlMs: 60_000, maxEntries: 2 });
    for (const id of ['c1', 'c2', 'c3']) await cached.insert(campaign(id));
    for (const id of ['c1', 'c2', 'c3']) await cached.findById('acc', id);
    await cached.findById('acc', 'c3');
    expect(reads()).toBe(3);
    await cached.findById('acc', 'c1');
    expect(reads()).toBe(4);
  });
});
