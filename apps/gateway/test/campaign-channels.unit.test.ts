import { AppError, errors } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { CampaignChannels, withChannel, type CampaignsPort } from '../src/api/responses/campaign-channels.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Messaging's list of account `acc`'s campaigns 1..count (campaign n has channel 1000 + n), two per page. */
function messaging(count: number) {
  const calls: Array<{ accountId: string; pageToken?: string }> = [];
  const port: CampaignsPort = {
    async listSmsCampaigns(req) {
      calls.push({ accountId: req.accountId, ...(req.pageToken !== undefined ? { pageToken: req.pageToken } : {}) });
      const all = req.accountId === 'acc' ? Array.from({ length: count }, (_, i) => ({ id: id(i + 1), channelId: id(1001 + i) })) : [];
      const start = Number(req.pageToken || 0);
      const next = start + 2 < all.length ? String(start + 2) : '';
      return { campaigns: all.slice(start, start + 2), nextPageToken: next };
    },
  };
  return { port, calls };
}

/** The survey service as the routes call it: it knows the channels 1001.. only. */
const survey = async (channelId: string) => {
  if (channelId && !channelId.startsWith('00000000-0000-4000-8000-000000001')) throw errors.notFound('channel_id', channelId);
  return channelId;
};

describe("an SMS campaign's channel", () => {
  it('is found through every page of the list, then without a call', async () => {
    const { port, calls } = messaging(5);
    const campaigns = new CampaignChannels(port);
    expect(await campaigns.channelOf('acc', id(5))).toBe(id(1005));
    expect(calls).toHaveLength(3);
    expect(await campaigns.channelOf('acc', id(5).toUpperCase())).toBe(id(1005));
    expect(await campaigns.channelOf('acc', id(1))).toBe(id(1001));
    expect(calls).toHaveLength(3);
  });

  it("is none for another account's or an unknown campaign", async () => {
    const campaigns = new CampaignChannels(messaging(3).port);
    expect(await campaigns.channelOf('other', id(1))).toBeNull();
    expect(await campaigns.channelOf('acc', id(99))).toBeNull();
  });
});

describe('the channel the response filters select', () => {
  it('takes campaign_id as its channel, and 404s naming it for a foreign or unknown one', async () => {
    const campaigns = new CampaignChannels(messaging(3).port);
    expect(await withChannel(campaigns, 'acc', { campaign_id: id(2) }, survey)).toBe(id(1002));
    await expect(withChannel(campaigns, 'other', { campaign_id: id(2) }, survey)).rejects.toMatchObject({
      kind: 'not_found',
      fields: { campaign_id: id(2) },
    });
  });

  it('reads a channel_id the survey service does not know as a campaign id, and keeps its 404 otherwise', async () => {
    const { port, calls } = messaging(3);
    const campaigns = new CampaignChannels(port);
    expect(await withChannel(campaigns, 'acc', { channel_id: id(1001) }, survey)).toBe(id(1001));
    expect(calls).toHaveLength(0);
    expect(await withChannel(campaigns, 'acc', { channel_id: id(3) }, survey)).toBe(id(1003));
    const err = await withChannel(campaigns, 'other', { channel_id: id(3) }, survey).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'not_found', fields: { channel_id: id(3) } });
  });

  it('takes both when they name the same channel, and refuses two different ones by name', async () => {
    const campaigns = new CampaignChannels(messaging(3).port);
    expect(await withChannel(campaigns, 'acc', { campaign_id: id(1), channel_id: id(1001) }, survey)).toBe(id(1001));
    expect(await withChannel(campaigns, 'acc', { campaign_id: id(1), channel_id: id(1) }, survey)).toBe(id(1001));
    await expect(withChannel(campaigns, 'acc', { campaign_id: id(1), channel_id: id(1002) }, survey)).rejects.toMatchObject({
      kind: 'invalid',
      fields: { campaign_id: expect.any(String) },
    });
  });

  it('is every channel when neither is given', async () => {
    const campaigns = new CampaignChannels(messaging(0).port);
    expect(await withChannel(campaigns, 'acc', {}, survey)).toBe('');
  });
});
