import { describe, expect, it } from 'vitest';
import { activateSurveyLink } from '../src/domain/activation.use-cases.js';
import { createChannel } from '../src/domain/channel.use-cases.js';
import { MAX_NPS_GROUPS, npsSummary } from '../src/domain/nps.use-cases.js';
import { submitAnswers } from '../src/domain/survey-page.use-cases.js';
import { memoryDeps, sampleFlow, uuid } from './fakes/memory-deps.js';

const rest = ['csat', 'ces', 'stars', 'emoji', 'yn'].map((k) => ({ questionKey: k, optionKeys: [], number: 1 }));
const choices = [
  { questionKey: 'single', optionKeys: ['a'] },
  { questionKey: 'multi', optionKeys: ['y'] },
  { questionKey: 'drop', optionKeys: ['p'] },
];

/** Answers given at the instants given, each from a store (a custom attribute of its SMS sharing). */
async function answered(given: Array<{ at: string; nps: number; store?: string }>) {
  const d = memoryDeps();
  const flow = sampleFlow('acc');
  d.flows.items.push(flow);
  const channel = await createChannel(d, 'acc', {
    name: 'SMS',
    nodeId: 'n',
    nodeName: 'N',
    flowId: flow.id,
    linkTtlDays: 365,
    kind: 'sms',
  });
  let n = 0;
  for (const g of given) {
    d.clock.at = new Date(new Date(g.at).getTime() - 60_000);
    const { link } = await activateSurveyLink(d, {
      accountId: 'acc',
      channelId: channel.id,
      customer: { phoneNumber: `90532123${String(++n).padStart(4, '0')}`, email: '', externalId: '', name: '', schema: {} },
      customAttributes: g.store ? { store: g.store, tckn: '10000000146' } : {},
      builtInResponses: {},
      sharingId: uuid(),
    });
    d.clock.at = new Date(g.at);
    await submitAnswers(d, link.token, [...choices, { questionKey: 'nps', optionKeys: [], number: g.nps }, ...rest]);
  }
  const nps = (more: { interval?: string; timeZone?: string; groupBy?: string }) =>
    npsSummary(d, { accountId: 'acc', flowId: flow.id, channelId: '', since: '', until: '', ...more });
  return { nps };
}

describe('the NPS over time and per attribute value', () => {
  it('tallies each day in the time zone, daylight saving time included, periods without answers left out', async () => {
    const { nps } = await answered([
      { at: '2026-03-28T23:30:00Z', nps: 10 }, // Berlin: Sunday 29 March, 00:30 (+01:00)
      { at: '2026-03-29T21:30:00Z', nps: 0 }, // Berlin: Sunday 29 March, 23:30 (+02:00): the same day
      { at: '2026-03-29T22:30:00Z', nps: 9 }, // Berlin: Monday 30 March, 00:30
      { at: '2026-04-02T10:00:00Z', nps: 8 },
    ]);
    const [q] = await nps({ interval: 'day', timeZone: 'Europe/Berlin' });
    expect(q).toMatchObject({ questionKey: 'nps', total: 4, promoters: 2, detractors: 1, passives: 1 });
    expect(q!.series).toEqual([
      { key: '2026-03-29T00:00:00.000+01:00', promoters: 1, passives: 0, detractors: 1, total: 2, score: 0 },
      { key: '2026-03-30T00:00:00.000+02:00', promoters: 1, passives: 0, detractors: 0, total: 1, score: 100 },
      { key: '2026-04-02T00:00:00.000+02:00', promoters: 0, passives: 1, detractors: 0, total: 1, score: 0 },
    ]);
    const [weekly] = await nps({ interval: 'week', timeZone: 'Europe/Berlin' });
    expect(weekly!.series!.map((s) => [s.key, s.total])).toEqual([
      ['2026-03-23T00:00:00.000+01:00', 2],
      ['2026-03-30T00:00:00.000+02:00', 2],
    ]);
    const [utc] = await nps({ interval: 'day' });
    expect(utc!.series!.map((s) => s.key)).toEqual([
      '2026-03-28T00:00:00.000+00:00',
      '2026-03-29T00:00:00.000+00:00',
      '2026-04-02T00:00:00.000+00:00',
    ]);
    expect((await nps({}))[0]).not.toHaveProperty('series');
  });

  it('tallies each value of a custom attribute, most answers first, those without it under ""', async () => {
    const { nps } = await answered([
      { at: '2026-11-20T10:00:00Z', nps: 10, store: 'Moda' },
      { at: '2026-11-20T11:00:00Z', nps: 3, store: 'Kadikoy' },
      { at: '2026-11-20T12:00:00Z', nps: 9, store: 'Kadikoy' },
      { at: '2026-11-20T13:00:00Z', nps: 7 },
    ]);
    const [q] = await nps({ groupBy: 'store' });
    expect(q!.groups).toEqual([
      { key: 'Kadikoy', promoters: 1, passives: 0, detractors: 1, total: 2, score: 0 },
      { key: '', promoters: 0, passives: 1, detractors: 0, total: 1, score: 0 },
      { key: 'Moda', promoters: 1, passives: 0, detractors: 0, total: 1, score: 100 },
    ]);
  });

  it('refuses a bad interval, zone or attribute by name, a sensitive one too', async () => {
    const { nps } = await answered([{ at: '2026-11-20T10:00:00Z', nps: 10, store: 'Moda' }]);
    await expect(nps({ interval: 'month', timeZone: 'Mars/Olympus', groupBy: 'a.b' })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { interval: expect.any(String), time_zone: expect.any(String), group_by: expect.any(String) },
    });
    await expect(nps({ groupBy: 'TCKN' })).rejects.toMatchObject({ fields: { group_by: expect.stringContaining('sensitive') } });
  });

  it(`refuses group_by past ${MAX_NPS_GROUPS} values`, async () => {
    const { nps } = await answered(
      Array.from({ length: MAX_NPS_GROUPS + 1 }, (_, i) => ({ at: '2026-11-20T10:00:00Z', nps: 5, store: `s${i}` })),
    );
    await expect(nps({ groupBy: 'store' })).rejects.toMatchObject({ kind: 'invalid', fields: { group_by: expect.any(String) } });
  });
});
