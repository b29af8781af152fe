import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { getCampaignReport, type CampaignReportQuery } from '../src/reports/domain/campaign-report.use-cases.js';
import { listSharingsWithTotals } from '../src/reports/domain/sharing-totals.use-cases.js';
import type { SmsSharing } from '../src/shared/domain/sharing.js';
import { campaignOf, MemoryCampaigns, MemorySharings } from './fakes/memory-deps.js';
import { MemoryTallies } from './fakes/memory-tallies.js';

const CAMPAIGN = '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a';
const FOREIGN = '8d0f4b6e-2a1c-4e7b-b3f5-9c6d2e1a7f30';
const NOW = new Date('2026-11-23T10:07:00Z');

async function setup() {
  const campaigns = new MemoryCampaigns();
  await campaigns.insert(campaignOf({ id: CAMPAIGN, accountId: 'acc', name: 'Kasım mağaza anketi' }));
  await campaigns.insert(campaignOf({ id: FOREIGN, accountId: 'other' }));
  const tallies = new MemoryTallies();
  const deps = { campaigns, sharings: new MemorySharings(), tallies, clock: { now: () => NOW } };
  return { deps, tallies };
}

const query = (q: Partial<CampaignReportQuery> = {}): CampaignReportQuery => ({
  accountId: 'acc',
  campaignId: CAMPAIGN,
  from: '',
  to: '',
  interval: '',
  timeZone: '',
  ...q,
});

/** The error's fields, or a failure when the call succeeded or failed otherwise. */
async function refusal(p: Promise<unknown>): Promise<{ kind: string; fields: Record<string, string> }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return { kind: (err as AppError).kind, fields: (err as AppError).fields };
}

describe('the campaign report', () => {
  it('adds up totals, rates and NPS over [from, to), and a day series of every day, empty ones included', async () => {
    const { deps, tallies } = await setup();
    tallies.bucket('acc', CAMPAIGN, '2026-11-20T23:45:00Z', { sent: 100 }); // before from: not counted
    tallies.bucket('acc', CAMPAIGN, '2026-11-21T00:00:00Z', {
      recipients: 10,
      sent: 8,
      delivered: 6,
      failed: 1,
      optedOut: 1,
      segments: 12,
      clicked: 3,
    });
    tallies.bucket('acc', CAMPAIGN, '2026-11-21T09:15:00Z', { delivered: 1, failed: 1, answered: 2, promoters: 1, detractors: 1 });
    tallies.bucket('acc', CAMPAIGN, '2026-11-23T08:00:00Z', { clicked: 1, answered: 1, passives: 1 });
    tallies.bucket('acc', CAMPAIGN, '2026-11-24T00:00:00Z', { sent: 100 }); // at `to`: not counted
    tallies.bucket('acc', FOREIGN, '2026-11-21T00:00:00Z', { sent: 100 }); // another campaign

    const r = await getCampaignReport(deps, query({ from: '2026-11-21', to: '2026-11-24' }));

    expect(r.campaignName).toBe('Kasım mağaza anketi');
    expect(r.totals).toEqual({ recipients: 10, sent: 8, delivered: 7, failed: 2, optedOut: 1, clicked: 4, answered: 3, segments: 12 });
    expect(r.rates).toEqual({ delivery: 0.875, click: 0.5, response: 0.375 });
    // One promoter, one passive, one detractor: 33% - 33% = 0.
    expect(r.nps).toEqual({ promoters: 1, passives: 1, detractors: 1, total: 3, score: 0 });
    expect(r.series).toEqual([
      { start: '2026-11-21T00:00:00.000+00:00', sent: 8, delivered: 7, failed: 2, clicked: 3, answered: 2 },
      { start: '2026-11-22T00:00:00.000+00:00', sent: 0, delivered: 0, failed: 0, clicked: 0, answered: 0 },
      { start: '2026-11-23T00:00:00.000+00:00', sent: 0, delivered: 0, failed: 0, clicked: 1, answered: 1 },
    ]);
    expect({ from: r.from.toISOString(), to: r.to.toISOString(), interval: r.interval, timeZone: r.timeZone }).toEqual({
      from: '2026-11-21T00:00:00.000Z',
      to: '2026-11-24T00:00:00.000Z',
      interval: 'day',
      timeZone: 'UTC',
    });
  });

  it('scores NPS as the survey summary does (halves away from zero) and has no rates or score without anything sent or answered', async () => {
    const { deps, tallies } = await setup();
    const empty = await getCampaignReport(deps, query());
    expect(empty.rates).toEqual({ delivery: null, click: null, response: null });
    expect(empty.nps).toEqual({ promoters: 0, passives: 0, detractors: 0, total: 0, score: null });
    expect(empty.totals.sent).toBe(0);

    // 2 promoters, 5 passives, 1 detractor: 25% - 12.5% = 12.5 → 13.
    tallies.bucket('acc', CAMPAIGN, '2026-11-22T10:00:00Z', { sent: 3, delivered: 2, promoters: 2, passives: 5, detractors: 1 });
    const r = await getCampaignReport(deps, query());
    expect(r.nps.score).toBe(13);
    expect(r.rates).toEqual({ delivery: 0.6667, click: 0, response: 0 });
  });

  it('defaults to the 30 days before now, by day, in UTC; an hour series in a zone', async () => {
    const { deps, tallies } = await setup();
    const r = await getCampaignReport(deps, query());
    expect(r.to).toEqual(NOW);
    expect(r.from).toEqual(new Date('2026-10-24T10:07:00Z'));
    // The day holding `from` to the day holding now: 31 buckets.
    expect(r.series).toHaveLength(31);
    expect(r.series[0]!.start).toBe('2026-10-24T00:00:00.000+00:00');

    tallies.bucket('acc', CAMPAIGN, '2026-11-23T09:00:00Z', { sent: 1 });
    tallies.bucket('acc', CAMPAIGN, '2026-11-23T09:30:00Z', { sent: 2 });
    const hours = await getCampaignReport(deps, query({ from: '2026-11-23T08:00:00Z', interval: 'hour', timeZone: 'Asia/Kolkata' }));
    expect(hours.series.map((b) => [b.start, b.sent])).toEqual([
      ['2026-11-23T13:00:00.000+05:30', 0],
      ['2026-11-23T14:00:00.000+05:30', 1],
      ['2026-11-23T15:00:00.000+05:30', 2],
    ]);
  });

  it('refuses bad arguments under their field, all at once, before reading anything', async () => {
    const { deps, tallies } = await setup();
    expect(await refusal(getCampaignReport(deps, query({ interval: 'week', timeZone: 'Mars/Olympus', from: '2026-02-30' })))).toEqual({
      kind: 'invalid',
      fields: { interval: expect.any(String), time_zone: expect.any(String), from: 'is not a calendar date' },
    });
    expect((await refusal(getCampaignReport(deps, query({ to: 'yesterday' })))).fields).toEqual({ to: expect.any(String) });
    expect((await refusal(getCampaignReport(deps, query({ from: '2026-11-22', to: '2026-11-22' })))).fields).toEqual({
      to: 'must be after from',
    });
    expect((await refusal(getCampaignReport(deps, query({ from: '2026-12-01' })))).fields).toEqual({ from: expect.any(String) });
    // More than 400 days, or 31 days by the hour.
    expect((await refusal(getCampaignReport(deps, query({ from: '2025-10-18', to: '2026-11-23' })))).fields).toEqual({
      from: 'must be at most 400 days before to with interval=day',
    });
    expect((await refusal(getCampaignReport(deps, query({ from: '2026-10-23T10:06:59Z', interval: 'hour' })))).fields).toEqual({
      from: 'must be at most 31 days before to with interval=hour',
    });
    expect(tallies.reads).toBe(0);
    // 400 days and 31 days are fine: a bucket more when the range starts mid-period.
    expect((await getCampaignReport(deps, query({ from: '2025-10-19', to: '2026-11-23' }))).series).toHaveLength(400);
    expect((await getCampaignReport(deps, query({ from: '2026-10-23T10:07:00Z', interval: 'hour' }))).series).toHaveLength(31 * 24 + 1);
  });

  it("answers another account's campaign and an unknown one as not found", async () => {
    const { deps } = await setup();
    expect(await refusal(getCampaignReport(deps, query({ campaignId: FOREIGN })))).toEqual({
      kind: 'not_found',
      fields: { campaign_id: FOREIGN },
    });
    expect((await refusal(getCampaignReport(deps, query({ campaignId: 'nope' })))).kind).toBe('not_found');
  });
});

describe('the lists of sharings with their counters', () => {
  it('gives every sharing of the page its totals in one read, zeros before its first counter document', async () => {
    const { deps, tallies } = await setup();
    const sharing = (id: string, minutes: number): SmsSharing => ({
      id,
      accountId: 'acc',
      campaignId: CAMPAIGN,
      createdAt: new Date(NOW.getTime() - minutes * 60_000),
      accepted: 2,
      duplicates: 0,
      rejected: [],
      scheduledFor: null,
      cancelledAt: null,
    });
    await deps.sharings.writeRecipients('counted').complete(sharing('counted', 20));
    await deps.sharings.writeRecipients('new').complete(sharing('new', 10));
    const counted = { recipients: 2, sent: 2, delivered: 1, failed: 0, optedOut: 0, clicked: 1, answered: 1, segments: 3 };
    tallies.sharing.set('counted', { ...counted, accountId: 'acc' });

    const page = await listSharingsWithTotals(deps, { accountId: 'acc', campaignId: '', status: '', createdAfter: '', createdBefore: '' });

    expect(page.items.map((i) => [i.sharing.id, i.totals])).toEqual([
      ['new', { recipients: 0, sent: 0, delivered: 0, failed: 0, optedOut: 0, clicked: 0, answered: 0, segments: 0 }],
      ['counted', counted],
    ]);
    expect(tallies.reads).toBe(1);
  });
});
