import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T = Record<string, unknown>>(p: ReturnType<typeof cli>) => JSON.parse((await p).stdout) as T;

// feedbackctl campaigns report against the running stack (docs/api.md "Campaign report").
describe('feedbackctl campaigns report', () => {
  it("prints a campaign's report over a range in a time zone; a bad interval is the API refusing it", async () => {
    const seeded = await json<Record<string, string>>(cli('seed'));
    const args = ['--account', seeded.account_id!, '--campaign', seeded.sms_campaign_id!];

    const report = await json(
      cli(
        'campaigns',
        'report',
        ...args,
        '--from',
        '2026-03-28',
        '--to',
        '2026-03-31T00:00:00+02:00',
        '--interval',
        'day',
        '--time-zone',
        'Europe/Berlin',
      ),
    );
    expect(report).toMatchObject({
      campaign_id: seeded.sms_campaign_id,
      interval: 'day',
      time_zone: 'Europe/Berlin',
      totals: { recipients: 0, sent: 0 },
      rates: { delivery: null, click: null, response: null },
      nps: { score: null, total: 0 },
    });
    // Midnight UTC of the 28th is 01:00 in Berlin: that day, the 29th (23 hours) and the 30th, to the 31st's midnight.
    expect((report.series as { start: string }[]).map((b) => b.start)).toEqual([
      '2026-03-28T00:00:00.000+01:00',
      '2026-03-29T00:00:00.000+01:00',
      '2026-03-30T00:00:00.000+02:00',
    ]);

    const refused = await failure(cli('campaigns', 'report', ...args, '--interval', 'week'));
    expect(refused.code).toBe(1);
    expect(apiError(refused.stderr).body).toMatchObject({ code: 13000, errors: { 'querystring.interval': expect.any(String) } });
  });
});
