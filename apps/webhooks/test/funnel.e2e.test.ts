import { randomInt } from 'node:crypto';
import { readStackFile, startSmsOperator } from '@feedback/dev-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call } from './api.js';
import { receiver, verifyAll } from './receiver.js';
import { waitFor } from './stack.js';

// The whole funnel over HTTP against the running stack, as a CX team and an integrator see it:
// a CSV of customers dropped into a directory bound to a campaign becomes a sharing (the file
// entry shows the outcome); the account's own SMS provider (a small HTTP SMS API here) takes each
// message and reports delivered or failed to messaging's delivery-report URL; recipients' links
// are followed by a link-preview fetcher, a crawler and a phone's browser; one survey is answered
// on its page. Then the campaign's report, the sharings list, the responses and the signed
// webhooks (checked with the Standard Webhooks library) must tell the same story.

const base = readStackFile().base_url!;
const phone = () => `90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const PREVIEW = 'facebookexternalhit/1.1 Facebot Twitterbot/1.0';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('the whole funnel, connected', () => {
  const rx = receiver();
  let origin: string;
  let operator: Awaited<ReturnType<typeof startSmsOperator>>;
  const [answered, clickedTwice, previewed, failed] = [phone(), phone(), phone(), phone()];

  beforeAll(async () => {
    origin = await rx.start();
    operator = await startSmsOperator(new Set([failed]));
  });
  afterAll(async () => {
    await operator?.close();
    await rx.close();
  });

  it(
    'CSV → sharing → delivery reports → clicks people made → an answer: the report, lists, responses and webhooks agree',
    { timeout: 180_000 },
    async () => {
      const startedAt = new Date();
      const account = await admin('POST', '/accounts', { name: 'funnel e2e' });
      const token = (await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'api', name: 'api' })).token as string;
      const get = (path: string) => call('GET', path, { token });
      const node = await admin('POST', `/accounts/${account.id}/nodes`, { name: 'store' });
      const flow = await admin('POST', `/accounts/${account.id}/flows`, {
        name: 'Visit',
        questions: [{ key: 'nps', body: { en: 'Recommend us?' }, style: 'nps' }],
      });
      const campaign = await admin('POST', `/accounts/${account.id}/sms_campaigns`, {
        name: 'After visit',
        node_id: node.id,
        flow_id: flow.id,
        message_template: 'Hello {{name}} {{link}}',
      });
      await admin('PUT', `/accounts/${account.id}/sms_provider`, operator.providerSettings());
      const ep = await call('POST', '/v1/webhook_endpoints', {
        token,
        body: { url: `${origin}/funnel`, events: ['file.processed', 'sms.delivered', 'sms.failed', 'survey.answered'], description: 'e2e' },
      });
      expect(ep.status, ep.text).toBe(201);

      // 1. The CSV: four customers with their order, one bad row.
      const dir = await call('POST', `/v2/file_service/${account.id}/directories`, { token, body: { name: 'sms-recipients' } });
      expect(dir.status, dir.text).toBe(201);
      const directoryId = dir.json.data.id as string;
      await admin('POST', `/accounts/${account.id}/sms_campaigns/${campaign.id}/directories`, { directory_id: directoryId });
      const rows = [answered, clickedTwice, previewed, failed].map((p, i) => `+${p},Customer${i},order-${i}`);
      const form = new FormData();
      form.append('filename', 'customers.csv');
      form.append(
        'file',
        new Blob([`phone,name,order_id\n${rows.join('\n')}\nnot-a-phone,Nobody,order-x\n`], { type: 'text/csv' }),
        'customers.csv',
      );
      const up = await fetch(`${base}/v2/file_service/directory/${directoryId}/files`, {
        method: 'POST',
        headers: { authorization: `Token token=${token}` },
        body: form,
      });
      expect(up.status).toBe(201);
      const fileId = ((await up.json()) as { data: { id: string } }).data.id;
      let processing: { status: string; sharing_id: string | null; accepted: number; rejected: number } | undefined;
      await waitFor(
        'the CSV processed',
        async () =>
          (processing = (await get(`/v2/file_service/directory/${directoryId}/files/${fileId}`)).json.data.processing).status !== 'pending',
        60_000,
      );
      expect(processing).toMatchObject({ status: 'processed', accepted: 4, rejected: 1 });
      const sharingId = processing!.sharing_id!;

      // 2. Delivery reports: three delivered, one failed.
      await waitFor('four delivery reports', () => operator.reports() >= 4, 60_000);

      // 3. Links: a preview fetcher and a crawler open one (not clicks), a browser opens another twice
      //    within a minute (one click), and the first is answered through the survey page.
      const linkOf = async (to: string) => {
        const text = operator.textTo(to);
        if (!text) throw new Error(`no SMS to ${to.slice(0, 5)}… reached the provider`);
        return /(https?:\/\/\S+)$/.exec(text)![1]!;
      };
      const tap = async (link: string, ua: string) => {
        const res = await fetch(link, { redirect: 'manual', headers: { 'user-agent': ua } });
        expect(res.status, link).toBe(302);
        return res.headers.get('location')!;
      };
      await tap(await linkOf(previewed), PREVIEW);
      await tap(await linkOf(previewed), CRAWLER);
      const twice = await linkOf(clickedTwice);
      await tap(twice, ANDROID);
      await tap(twice, ANDROID);
      const page = await tap(await linkOf(answered), IPHONE);
      const posted = await fetch(page, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(page).origin, 'user-agent': IPHONE },
        body: 'n.nps=10',
      });
      expect(posted.status).toBe(200);

      // 4. The campaign's report: counted as the events happened (the relay follows within seconds).
      const to = new Date(Date.now() + 3_600_000).toISOString();
      const from = new Date(startedAt.getTime() - 3_600_000).toISOString();
      const reportPath = `/v1/sms_campaigns/${campaign.id}/report?from=${from}&to=${to}&interval=hour&time_zone=Europe/Istanbul`;
      interface Report {
        totals: Record<string, number>;
        rates: Record<string, number | null>;
        nps: Record<string, number | null>;
        series: Record<string, number | string>[];
      }
      let report = {} as Report;
      await waitFor(
        'the report counting the answer and both clicks',
        async () => {
          const res = await get(reportPath);
          expect(res.status, res.text).toBe(200);
          report = res.json;
          return report.totals.answered === 1 && report.totals.clicked === 2 && report.totals.delivered === 3 && report.totals.failed === 1;
        },
        60_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(report)}`);
      });
      console.log(
        `funnel report: ${JSON.stringify({ totals: report.totals, rates: report.rates, nps: report.nps, buckets: report.series.length })}`,
      );
      expect(report).toMatchObject({
        campaign_id: campaign.id,
        totals: { recipients: 4, sent: 4, delivered: 3, failed: 1, opted_out: 0, clicked: 2, answered: 1 },
        rates: { delivery: 0.75, click: 0.5, response: 0.25 },
        nps: { score: 100, promoters: 1, passives: 0, detractors: 0, total: 1 },
      });
      expect(report.totals.segments).toBeGreaterThanOrEqual(4);
      // The series holds the same events, bucketed by the hour in Istanbul.
      const sum = (k: string) => report.series.reduce((n, b) => n + Number(b[k]), 0);
      expect(['sent', 'delivered', 'failed', 'clicked', 'answered'].map(sum)).toEqual([4, 3, 1, 2, 1]);
      for (const b of report.series) expect(b.start).toMatch(/T\d\d:00:00(\.000)?\+03:00$/);

      // 5. The sharings list shows the sharing with the same counts and funnel.
      const list = await get(`/v1/sms_sharings?campaign_id=${campaign.id}`);
      expect(list.status, list.text).toBe(200);
      const entry = (list.json.data as { id: string }[]).find((s) => s.id === sharingId);
      expect(entry).toMatchObject({ totals: { recipients: 4, sent: 4, delivered: 3, failed: 1 }, funnel: { clicked: 2, answered: 1 } });

      // 6. The answer keeps its context: the campaign, the sharing, the message and the CSV's columns.
      const responses = await get(`/v1/responses?campaign_id=${campaign.id}`);
      expect(responses.status, responses.text).toBe(200);
      expect(responses.json.data).toHaveLength(1);
      const response = responses.json.data[0];
      expect(response).toMatchObject({
        campaign_id: campaign.id,
        sharing_id: sharingId,
        message_id: expect.any(String),
        custom_attributes: { name: 'Customer0', order_id: 'order-0' },
        answers: { nps: 10 },
      });

      // 7. Webhooks, each verified: the file's outcome, 3 delivered, 1 failed with the report's error,
      //    and the answer with the very answers the REST API shows.
      await waitFor('every webhook', () => rx.at('/funnel').length >= 6, 60_000);
      const events = verifyAll(rx.at('/funnel'), ep.json.secret as string);
      const types = events.map((e) => e.type).sort();
      expect(types).toEqual(['file.processed', 'sms.delivered', 'sms.delivered', 'sms.delivered', 'sms.failed', 'survey.answered']);
      expect(events.find((e) => e.type === 'sms.failed')?.data).toMatchObject({
        sharing_id: sharingId,
        status: 'failed',
        error: { status: 'UNDELIV', code: 'EC_ABSENT_SUBSCRIBER' },
      });
      expect(events.find((e) => e.type === 'survey.answered')?.data).toMatchObject({
        campaign_id: campaign.id,
        sharing_id: sharingId,
        answers: response.answers,
      });
      expect(events.find((e) => e.type === 'file.processed')?.data).toMatchObject({
        file_id: fileId,
        processing: { sharing_id: sharingId },
      });
    },
  );
});
