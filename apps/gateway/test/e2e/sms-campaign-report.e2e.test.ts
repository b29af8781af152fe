import { readStackFile } from '@feedback/dev-stack';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS } from './stack-client.js';
import { randomPhone, smsClient } from './sms-client.js';

type Json = Record<string, unknown>;
/** A counter document: its id is a string (`<campaign>|<bucket start>` or the sharing id). */
type Counter = { _id: string } & Json;

// The campaign report and the lists' counters (docs/api.md "Campaign report", "Lists of campaigns
// and sharings") over HTTP, on counter documents the test writes itself the way the relay keeps
// them (apps/messaging reports/: campaign_tallies per 15-minute bucket, sharing_tallies per sharing).
describe('the campaign report and the counters of the lists of sharings', () => {
  const sms = smsClient();
  let mine: Awaited<ReturnType<typeof sms.newCampaign>>;
  let other: Awaited<ReturnType<typeof sms.newCampaign>>;
  let mongo: MongoClient;
  let db: Db;

  const get = (path: string, token = mine.account.apiToken) =>
    sms.request('GET', path, { headers: { authorization: `Token token=${token}` } });
  const report = async (query: string, token?: string) => {
    const res = await get(`/v1/sms_campaigns/${mine.campaignId}/report${query}`, token);
    return { status: res.status, body: res.json as Json, text: res.text };
  };
  /** One 15-minute counter document of a campaign, as the relay leaves it (absent counters are 0). */
  const bucket = (campaignId: string, accountId: string, start: string, counts: Json) =>
    db.collection<Counter>('campaign_tallies').insertOne({
      _id: `${campaignId}|${new Date(start).toISOString()}`,
      account_id: accountId,
      campaign_id: campaignId,
      start: new Date(start),
      ...counts,
      applied: [],
    });

  beforeAll(async () => {
    [mine, other] = await Promise.all([sms.newCampaign(), sms.newCampaign()]);
    mongo = new MongoClient(readStackFile().mongo_url);
    db = mongo.db('messaging');
    // Around the end of summer time in Berlin (2026-10-25, 03:00 → 02:00): that day is 25 hours.
    const id = mine.campaignId;
    const account = mine.account.id;
    await bucket(id, account, '2026-10-24T21:45:00Z', { recipients: 5, sent: 5, delivered: 4, segments: 5 }); // Oct 24, 23:45 +02:00
    await bucket(id, account, '2026-10-24T22:00:00Z', {
      recipients: 11,
      sent: 10,
      delivered: 8,
      failed: 1,
      opted_out: 1,
      clicked: 4,
      answered: 3,
      segments: 12,
      promoters: 2,
      detractors: 1,
    }); // Oct 25, 00:00 +02:00
    await bucket(id, account, '2026-10-25T22:45:00Z', { clicked: 1, answered: 1, passives: 1 }); // Oct 25, 23:45 +01:00
    await bucket(id, account, '2026-10-25T23:00:00Z', { delivered: 1 }); // Oct 26, 00:00 +01:00
    // Another campaign's bucket of the same quarter hour counts for it alone.
    await bucket(other.campaignId, other.account.id, '2026-10-24T22:00:00Z', { sent: 1000 });
  });

  afterAll(async () => {
    await db?.collection('campaign_tallies').deleteMany({ campaign_id: { $in: [mine.campaignId, other.campaignId] } });
    await db?.collection('sharing_tallies').deleteMany({ campaign_id: mine.campaignId });
    await mongo?.close();
  });

  it("answers totals, rates, NPS and a day series in the caller's zone, days of 23 or 25 hours included", async () => {
    const from = encodeURIComponent('2026-10-24T00:00:00+02:00');
    const to = encodeURIComponent('2026-10-27T00:00:00+01:00');
    const r = await report(`?from=${from}&to=${to}&interval=day&time_zone=Europe/Berlin`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      campaign_id: mine.campaignId,
      from: '2026-10-23T22:00:00.000+00:00',
      to: '2026-10-26T23:00:00.000+00:00',
      interval: 'day',
      time_zone: 'Europe/Berlin',
      totals: { recipients: 16, sent: 15, delivered: 13, failed: 1, opted_out: 1, clicked: 5, answered: 4, segments: 17 },
      rates: { delivery: 0.8667, click: 0.3333, response: 0.2667 },
      // 2 promoters, 1 passive, 1 detractor: 50% - 25%.
      nps: { score: 25, promoters: 2, passives: 1, detractors: 1, total: 4 },
      series: [
        { start: '2026-10-24T00:00:00.000+02:00', sent: 5, delivered: 4, failed: 0, clicked: 0, answered: 0 },
        { start: '2026-10-25T00:00:00.000+02:00', sent: 10, delivered: 8, failed: 1, clicked: 5, answered: 4 },
        { start: '2026-10-26T00:00:00.000+01:00', sent: 0, delivered: 1, failed: 0, clicked: 0, answered: 0 },
      ],
    });

    // By the hour, Berlin's 02:00 comes twice that night, told apart by its offset.
    const hours = await report(`?from=2026-10-24T23:00:00Z&to=2026-10-25T02:00:00Z&interval=hour&time_zone=Europe/Berlin`);
    expect(hours.status, hours.text).toBe(200);
    expect((hours.body.series as Json[]).map((b) => b.start)).toEqual([
      '2026-10-25T01:00:00.000+02:00',
      '2026-10-25T02:00:00.000+02:00',
      '2026-10-25T02:00:00.000+01:00',
    ]);

    // The operator's route answers the same.
    const admin = await sms.admin(
      'GET',
      `/accounts/${mine.account.id}/sms_campaigns/${mine.campaignId}/report?from=${from}&to=${to}&interval=day&time_zone=Europe/Berlin`,
    );
    expect(admin).toEqual(r.body);
  });

  it('defaults to the last 30 days by day in UTC, with null rates and score when nothing was sent or answered', async () => {
    const r = await report('');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      interval: 'day',
      time_zone: 'UTC',
      totals: { recipients: 0, sent: 0, delivered: 0, failed: 0, opted_out: 0, clicked: 0, answered: 0, segments: 0 },
      rates: { delivery: null, click: null, response: null },
      nps: { score: null, promoters: 0, passives: 0, detractors: 0, total: 0 },
    });
    expect(Date.parse(r.body.to as string) - Date.parse(r.body.from as string)).toBe(30 * 86_400_000);
    expect(r.body.series).toHaveLength(31);
  });

  it('refuses a bad range, interval or zone with 400 naming the field', async () => {
    // The gateway's schema names a malformed parameter `querystring.<name>`; messaging names what it checks further.
    const cases: [string, string][] = [
      ['?interval=week', 'querystring.interval'],
      ['?from=yesterday', 'querystring.from'],
      ['?time_zone=Mars/Olympus', 'time_zone'],
      ['?from=2026-02-30', 'from'],
      ['?from=2026-11-02&to=2026-11-01', 'to'],
      ['?from=2025-01-01&to=2026-11-01', 'from'],
      ['?from=2026-09-01&to=2026-11-01&interval=hour', 'from'],
    ];
    for (const [query, field] of cases) {
      const r = await report(query);
      expect(r.status, `${query}: ${r.text}`).toBe(400);
      expect(Object.keys(r.body).sort()).toEqual(ERROR_KEYS);
      expect(r.body).toMatchObject({ code: 13000, errors: { [field]: expect.any(String) } });
    }
  });

  it("answers another account's campaign and an unknown one 404, like the other campaign routes", async () => {
    const foreign = await get(`/v1/sms_campaigns/${mine.campaignId}/report`, other.account.apiToken);
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.json).toMatchObject({ code: 13002, errors: { campaign_id: mine.campaignId } });
    expect(foreign.text).not.toContain('"totals"');
    const unknown = await get('/v1/sms_campaigns/00000000-0000-4000-8000-000000000000/report');
    expect(unknown.status, unknown.text).toBe(404);
  });

  it('gives each sharing of a list its counters (zeros before its first count), through every list', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const share = async (body: Json) => {
      const res = await sms.share(mine.account.apiToken, mine.campaignId, body);
      expect(res.status, res.text).toBe(200);
      return res.json.id as string;
    };
    // Due tomorrow, so nothing but its acceptance is counted meanwhile; the other accepted no phone, so it never is.
    const counted = await share({ phone_numbers: [randomPhone(), randomPhone()], send_at: tomorrow });
    const never = await share({ phone_numbers: ['12'] });
    await db.collection<Counter>('sharing_tallies').updateOne(
      { _id: counted },
      {
        $set: {
          account_id: mine.account.id,
          campaign_id: mine.campaignId,
          sent: 2,
          delivered: 1,
          failed: 1,
          clicked: 1,
          answered: 1,
          segments: 3,
        },
      },
      { upsert: true },
    );
    // The relay adds the accepted phones to `recipients` when it gets to them: whatever it holds, the list shows.
    const recipients = async () =>
      ((await db.collection<Counter>('sharing_tallies').findOne({ _id: counted }))?.recipients as number | undefined) ?? 0;

    const lists = [
      () => get('/v1/sms_sharings').then((r) => r.json),
      () => get(`/v1/sms_campaigns/${mine.campaignId}/sms_sharings`).then((r) => r.json),
      () => sms.admin('GET', `/accounts/${mine.account.id}/sms_sharings`),
    ];
    for (const list of lists) {
      let seen: Json[] = [];
      let held = -1;
      for (let attempt = 0; attempt < 10; attempt++) {
        const before = await recipients();
        seen = ((await list()) as { data: Json[] }).data;
        held = await recipients();
        if (before === held) break; // not moved while the list was read
      }
      const byId = Object.fromEntries(seen.map((s) => [s.id, s]));
      expect(byId[counted]).toMatchObject({
        accepted: 2,
        totals: { recipients: held, sent: 2, delivered: 1, failed: 1, opted_out: 0 },
        funnel: { clicked: 1, answered: 1 },
        segments: 3,
      });
      expect(byId[never]).toMatchObject({
        accepted: 0,
        totals: { recipients: 0, sent: 0, delivered: 0, failed: 0, opted_out: 0 },
        funnel: { clicked: 0, answered: 0 },
        segments: 0,
      });
    }
  });
});
