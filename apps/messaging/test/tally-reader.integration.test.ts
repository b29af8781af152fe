import { explainFinds } from '@feedback/dev-stack';
import type { MongoHandle } from '@feedback/kit-stores';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoTallyReader } from '../src/reports/adapters/mongo/tally.reader.js';
import { getCampaignReport } from '../src/reports/domain/campaign-report.use-cases.js';
import { zeroTotals } from '../src/reports/domain/report-totals.js';
import { campaignOf, MemoryCampaigns, MemorySharings } from './fakes/memory-deps.js';
import { dropTestDb, openTestDb, stack } from './stack.js';

// The report's reader on the stack's MongoDB, over counter documents shaped as the relay writes
// them (reports/domain/tally.ts): counters absent until first incremented, the relay's tokens in `applied`.
describe('the counter documents read back on the stack MongoDB', () => {
  let mongo: MongoHandle;
  let reader: MongoTallyReader;

  beforeAll(async () => {
    mongo = await openTestDb();
    reader = new MongoTallyReader(mongo.db);
    const bucket = (campaign: string, account: string, start: string, counts: Record<string, number>) => ({
      _id: `${campaign}|${new Date(start).toISOString()}`,
      account_id: account,
      campaign_id: campaign,
      start: new Date(start),
      ...counts,
      applied: ['a-token-in-flight'],
    });
    await mongo.db.collection<{ _id: string }>('campaign_tallies').insertMany([
      bucket('camp', 'acc', '2026-11-21T23:45:00Z', { sent: 1 }),
      bucket('camp', 'acc', '2026-11-22T00:00:00Z', { recipients: 3, sent: 2, segments: 4, opted_out: 1 }),
      bucket('camp', 'acc', '2026-11-22T10:15:00Z', { delivered: 2, clicked: 1, answered: 1, promoters: 1 }),
      bucket('camp', 'acc', '2026-11-23T00:00:00Z', { sent: 5 }),
      bucket('other-camp', 'acc', '2026-11-22T00:00:00Z', { sent: 7 }),
      // The same campaign id under another account never reads as this one's.
      bucket('camp', 'intruder', '2026-11-22T05:00:00Z', { sent: 9 }),
    ]);
    await mongo.db.collection<{ _id: string } & Record<string, unknown>>('sharing_tallies').insertMany([
      { _id: 's1', account_id: 'acc', campaign_id: 'camp', recipients: 2, sent: 2, delivered: 1, clicked: 1, segments: 3, applied: [] },
      { _id: 's2', account_id: 'acc', campaign_id: 'camp', recipients: 1 },
      { _id: 's3', account_id: 'intruder', campaign_id: 'camp', recipients: 5 },
    ]);
  });
  afterAll(async () => {
    await dropTestDb(mongo);
  });

  it("reads a campaign's buckets in [from, to), oldest first, absent counters as 0, through the index campaign_start", async () => {
    const rows = await reader.campaignBuckets('acc', 'camp', new Date('2026-11-22T00:00:00Z'), new Date('2026-11-23T00:00:00Z'));
    expect(rows).toEqual([
      {
        ...zeroTotals(),
        promoters: 0,
        passives: 0,
        detractors: 0,
        start: new Date('2026-11-22T00:00:00Z'),
        recipients: 3,
        sent: 2,
        segments: 4,
        optedOut: 1,
      },
      {
        ...zeroTotals(),
        promoters: 1,
        passives: 0,
        detractors: 0,
        start: new Date('2026-11-22T10:15:00Z'),
        delivered: 2,
        clicked: 1,
        answered: 1,
      },
    ]);

    const client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    try {
      const monitored = new MongoTallyReader(client.db(mongo.db.databaseName));
      const plans = await explainFinds(client, () =>
        monitored.campaignBuckets('acc', 'camp', new Date('2026-11-01T00:00:00Z'), new Date('2026-12-01T00:00:00Z')),
      );
      expect(plans).toHaveLength(1);
      expect(plans[0]!.stages).toContain('IXSCAN');
      expect(plans[0]!.stages).not.toContain('COLLSCAN');
      expect(plans[0]!.indexes).toEqual(['campaign_start']);
      const pages = await explainFinds(client, () => monitored.sharingTotals('acc', ['s1', 's2']));
      expect(pages[0]!.stages).toContain('IXSCAN');
      expect(pages[0]!.stages).not.toContain('COLLSCAN');
    } finally {
      await client.close();
    }
  });

  it("reads a page of sharings' totals in one go, only the account's, none for a sharing without a document", async () => {
    const totals = await reader.sharingTotals('acc', ['s1', 's2', 's3', 'never-counted']);
    expect(Object.fromEntries(totals)).toEqual({
      s1: { ...zeroTotals(), recipients: 2, sent: 2, delivered: 1, clicked: 1, segments: 3 },
      s2: { ...zeroTotals(), recipients: 1 },
    });
  });

  it('makes the report of the stored documents: totals, NPS and the day series', async () => {
    const campaigns = new MemoryCampaigns();
    await campaigns.insert(campaignOf({ id: 'camp', accountId: 'acc' }));
    const deps = { campaigns, sharings: new MemorySharings(), tallies: reader, clock: { now: () => new Date('2026-11-24T00:00:00Z') } };
    const r = await getCampaignReport(deps, {
      accountId: 'acc',
      campaignId: 'camp',
      from: '2026-11-22',
      to: '',
      interval: '',
      timeZone: '',
    });
    expect(r.totals).toEqual({ ...zeroTotals(), recipients: 3, sent: 7, delivered: 2, optedOut: 1, clicked: 1, answered: 1, segments: 4 });
    expect(r.nps).toEqual({ promoters: 1, passives: 0, detractors: 0, total: 1, score: 100 });
    expect(r.series.map((b) => [b.start, b.sent])).toEqual([
      ['2026-11-22T00:00:00.000+00:00', 2],
      ['2026-11-23T00:00:00.000+00:00', 5],
    ]);
  });
});
