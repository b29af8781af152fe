import { describe, expect, it } from 'vitest';
import { AppError } from '@feedback/kit-core';
import { listCampaigns } from '../src/campaigns/domain/campaign.use-cases.js';
import { listSharings, type SharingListRequest } from '../src/intake/domain/sharing-list.use-cases.js';
import type { SmsSharing } from '../src/shared/domain/sharing.js';
import { campaignOf, MemoryCampaigns, MemorySharings } from './fakes/memory-deps.js';

const CAMPAIGN = '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a';
const OTHER_CAMPAIGN = '0b7e3c52-5f8e-4d4a-9a57-1c2f6e9d8a41';
const FOREIGN_CAMPAIGN = '8d0f4b6e-2a1c-4e7b-b3f5-9c6d2e1a7f30';
const NOW = new Date('2026-11-23T10:00:00Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

async function setup() {
  const campaigns = new MemoryCampaigns();
  await campaigns.insert(campaignOf({ id: CAMPAIGN, accountId: 'acc', createdAt: at(-100) }));
  await campaigns.insert(campaignOf({ id: OTHER_CAMPAIGN, accountId: 'acc', createdAt: at(-90) }));
  await campaigns.insert(campaignOf({ id: FOREIGN_CAMPAIGN, accountId: 'other', createdAt: at(-80) }));
  const sharings = new MemorySharings();
  const put = async (id: string, s: Partial<SmsSharing>) => {
    const sharing: SmsSharing = {
      id,
      accountId: 'acc',
      campaignId: CAMPAIGN,
      createdAt: at(-60),
      accepted: 2,
      duplicates: 1,
      rejected: [{ phone: '12', reason: 'too_short' }],
      scheduledFor: null,
      cancelledAt: null,
      ...s,
    };
    const w = sharings.writeRecipients(id);
    await w.complete(sharing);
  };
  await put('s-progress', { createdAt: at(-50) });
  await put('s-completed', { createdAt: at(-40) });
  await sharings.markCompleted('s-completed', at(-30));
  await put('s-scheduled', { createdAt: at(-30), scheduledFor: at(60) });
  await put('s-cancelled', { createdAt: at(-20), scheduledFor: at(60), cancelledAt: at(-10) });
  await put('s-empty', { createdAt: at(-15), accepted: 0 });
  await put('s-other-campaign', { createdAt: at(-10), campaignId: OTHER_CAMPAIGN });
  await put('s-foreign', { createdAt: at(-5), accountId: 'other', campaignId: FOREIGN_CAMPAIGN });
  return { deps: { campaigns, sharings, clock: { now: () => NOW } } };
}

const req = (q: Partial<SharingListRequest> = {}): SharingListRequest => ({
  accountId: 'acc',
  campaignId: '',
  status: '',
  createdAfter: '',
  createdBefore: '',
  ...q,
});

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('listing sharings', () => {
  it("answers the account's sharings newest first with each one's status, never another account's", async () => {
    const { deps } = await setup();
    const page = await listSharings(deps, req());
    expect(page.items.map((i) => [i.sharing.id, i.status])).toEqual([
      ['s-other-campaign', 'in_progress'],
      ['s-empty', 'completed'],
      ['s-cancelled', 'cancelled'],
      ['s-scheduled', 'scheduled'],
      ['s-completed', 'completed'],
      ['s-progress', 'in_progress'],
    ]);
    expect(page.nextPageToken).toBe('');
    expect(page.items.find((i) => i.sharing.id === 's-completed')?.sharing.completedAt).toEqual(at(-30));
  });

  it('filters by campaign, status and creation range, and pages through the rest with a token', async () => {
    const { deps } = await setup();
    const ofCampaign = await listSharings(deps, req({ campaignId: CAMPAIGN, status: 'completed' }));
    expect(ofCampaign.items.map((i) => i.sharing.id)).toEqual(['s-empty', 's-completed']);
    const ranged = await listSharings(deps, req({ createdAfter: at(-40).toISOString(), createdBefore: at(-15).toISOString() }));
    expect(ranged.items.map((i) => i.sharing.id)).toEqual(['s-cancelled', 's-scheduled', 's-completed']);

    const seen: string[] = [];
    let token = '';
    for (let n = 0; n < 10; n++) {
      const page = await listSharings(deps, req({ pageSize: 4, pageToken: token }));
      seen.push(...page.items.map((i) => i.sharing.id));
      token = page.nextPageToken;
      if (!token) break;
    }
    expect(seen).toEqual((await listSharings(deps, req())).items.map((i) => i.sharing.id));
  });

  it('refuses a bad status, bad dates and an empty range at once, naming each field', async () => {
    const { deps } = await setup();
    const err = await errorOf(listSharings(deps, req({ status: 'done', createdAfter: '2026-02-30', createdBefore: 'yesterday' })));
    expect(err.kind).toBe('invalid');
    expect(Object.keys(err.fields ?? {}).sort()).toEqual(['created_after', 'created_before', 'status']);
    const empty = await errorOf(listSharings(deps, req({ createdAfter: '2026-11-23', createdBefore: '2026-11-22T23:00:00+00:00' })));
    expect(empty.fields).toHaveProperty('created_before');
    const token = await errorOf(listSharings(deps, req({ pageToken: 'bm9wZQ' })));
    expect(token.fields).toHaveProperty('page_token');
  });

  it("answers another account's campaign as not found, like an unknown one", async () => {
    const { deps } = await setup();
    for (const campaignId of [FOREIGN_CAMPAIGN, '00000000-0000-4000-8000-000000000000']) {
      const err = await errorOf(listSharings(deps, req({ campaignId })));
      expect(err.kind).toBe('not_found');
      expect(err.fields).toEqual({ campaign_id: campaignId });
    }
  });
});

describe('listing campaigns', () => {
  it("pages through the account's campaigns newest first, never another account's", async () => {
    const { deps } = await setup();
    const first = await listCampaigns(deps, { accountId: 'acc', pageSize: 1 });
    expect(first.items.map((c) => c.id)).toEqual([OTHER_CAMPAIGN]);
    const second = await listCampaigns(deps, { accountId: 'acc', pageSize: 1, pageToken: first.nextPageToken });
    expect(second.items.map((c) => c.id)).toEqual([CAMPAIGN]);
    expect(second.nextPageToken).toBe('');
    const sharingToken = (await listSharings(deps, req({ pageSize: 1 }))).nextPageToken;
    expect((await errorOf(listCampaigns(deps, { accountId: 'acc', pageToken: sharingToken }))).fields).toHaveProperty('page_token');
  });
});
