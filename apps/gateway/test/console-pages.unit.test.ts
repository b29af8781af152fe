import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_CSS_PATH } from '../src/console/console.css.js';
import { campaignOf, consoleApi, FakeSessions, FakeSms, recipient, reportOf, sharingOf, viewerOf } from './console-fakes.js';

// The console's pages on fakes of ConsoleSessions and messaging: who may see and do what, the
// CSP, both languages, the campaign's chart and the sharing's recipients.

const XSS = '<script>alert(1)</script>';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('console pages', () => {
  let sessions: FakeSessions;
  let sms: FakeSms;
  let app: FastifyInstance;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    sessions = new FakeSessions();
    sms = new FakeSms();
    app = await consoleApi(sessions, sms, { publicBaseUrl: 'http://localhost:8080' });
    for (const role of ['owner', 'member', 'viewer'] as const) cookies[role] = sessions.open(viewerOf(role));
    cookies.operator = sessions.open(viewerOf('operator', null));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    sms.campaigns = [campaignOf('c-1', 'acc-1', `Spring ${XSS}`), campaignOf('c-2', 'acc-2', 'Other shop')];
    sms.reports = new Map([
      [
        'c-1',
        reportOf('c-1', [
          [100, 90, 40, 10],
          [50, 45, 20, 5],
          [0, 0, 0, 0],
        ]),
      ],
    ]);
    const recipients = Array.from({ length: 120 }, (_, i) =>
      recipient(`90532${String(i).padStart(7, '0')}`, i % 3 === 0 ? 'failed' : 'delivered'),
    );
    sms.sharings = [
      sharingOf('sh-1', 'c-1', recipients),
      sharingOf('sh-2', 'c-1', [recipient('905320000001', 'scheduled')], { scheduledFor: '2026-11-03T09:00:00.000Z' }),
      sharingOf('sh-9', 'c-2', [recipient('905329999999', 'delivered')]),
    ];
    sms.cancels = [];
    sms.reportRequests = [];
  });

  const get = (url: string, role?: string, headers: Record<string, string> = {}) =>
    app.inject({ url, headers: { ...(role ? { cookie: `fs_session=${cookies[role]}` } : {}), ...headers } });
  const post = (url: string, role: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie: `fs_session=${cookies[role]}`, ...headers },
      payload: new URLSearchParams(fields).toString(),
    });

  it('sends a request without a valid session to the sign-in page', async () => {
    for (const url of ['/console/', '/console/campaigns/c-1', '/console/sharings/sh-1']) {
      const res = await get(url);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/console/sign-in');
    }
    const stale = await app.inject({ url: '/console/', headers: { cookie: 'fs_session=ended' } });
    expect(stale.statusCode).toBe(303);
    const cancel = await app.inject({ method: 'POST', url: '/console/sharings/sh-2/cancel', headers: FORM, payload: '' });
    expect(cancel.statusCode).toBe(303);
    expect(sms.cancels).toEqual([]);
  });

  it('serves every page under a strict CSP with its style sheet from this origin', async () => {
    const res = await get('/console/', 'owner');
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(`<link rel="stylesheet" href="${CONSOLE_CSS_PATH}">`);
    expect(res.body).not.toMatch(/<script|<style| style="/);
    const css = await get(CONSOLE_CSS_PATH);
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
    expect((await get('/console/sign-in')).headers['content-security-policy']).toBe(csp);
  });

  it("lists the account's campaigns with their key numbers, names escaped", async () => {
    const res = await get('/console/', 'viewer');
    expect(res.body).toContain('Spring &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain(XSS);
    expect(res.body).toContain('href="/console/campaigns/c-1"');
    expect(res.body).not.toContain('Other shop');
    // sent 150, delivered 135, clicked 60, answered 15, NPS 37
    for (const n of ['150', '135', '60', '15', '37']) expect(res.body).toContain(`<td class="num">${n}</td>`);
  });

  it('answers 404 for another account’s campaign and sharing', async () => {
    for (const url of ['/console/campaigns/c-2', '/console/sharings/sh-9']) {
      const res = await get(url, 'owner');
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Not found');
      expect(res.body).not.toContain('Other shop');
      expect(res.body).not.toContain('905329999999');
    }
    // An account user's `account` parameter changes nothing.
    expect((await get('/console/campaigns/c-2?account=acc-2', 'owner')).statusCode).toBe(404);
  });

  it('lets an operator pick an account first', async () => {
    const picker = await get('/console/', 'operator');
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain('<label for="account">');
    const list = await get('/console/?account=acc-2', 'operator');
    expect(list.body).toContain('Other shop');
    expect(list.body).toContain('href="/console/campaigns/c-2?account=acc-2"');
    expect((await get('/console/?account=nope', 'operator')).statusCode).toBe(404);
  });

  it("draws the campaign's chart from the report's series, with the same figures in a table", async () => {
    const res = await get('/console/campaigns/c-1?from=2026-11-01&to=2026-11-03&interval=day', 'owner');
    expect(res.statusCode).toBe(200);
    expect(sms.reportRequests.at(-1)).toEqual({ from: '2026-11-01', to: '2026-11-04', interval: 'day' });
    // The name comes with the report (messaging reads the campaign for it), escaped.
    expect(res.body).toContain('Spring &lt;script&gt;');
    expect(res.body).not.toContain(`Spring ${XSS}`);
    const points = (key: string) => {
      const m = new RegExp(`data-series="${key}"[^>]*points="([^"]*)"`).exec(res.body);
      return m![1]!.split(' ').map((p) => p.split(',').map(Number) as [number, number]);
    };
    const sent = points('sent');
    const answered = points('answered');
    expect(sent).toHaveLength(3);
    // Higher values sit higher (smaller y); equal values at the same height; x runs left to right.
    expect(sent[0]![1]).toBeLessThan(sent[1]![1]);
    expect(sent[1]![1]).toBeLessThan(sent[2]![1]);
    expect(answered[2]![1]).toBe(sent[2]![1]);
    expect(sent[0]![0]).toBeLessThan(sent[1]![0]);
    // 100 on an axis to 100 is the top of the plot; 50 half-way down it.
    expect(sent[1]![1] - sent[0]![1]).toBeCloseTo((sent[2]![1] - sent[0]![1]) / 2, 1);
    expect(res.body).toMatch(
      /<tr><th scope="row">[^<]+<\/th><td class="num">100<\/td><td class="num">90<\/td><td class="num">40<\/td><td class="num">10<\/td><\/tr>/,
    );
    expect(res.body).toContain('<span class="big">37</span>');
    expect(res.body).toContain('href="/console/sharings/sh-1"');
  });

  it('shows a page of recipients, filtered by status and found by phone', async () => {
    const rows = (body: string) => body.match(/<tr>\n<th scope="row">\+90532/g) ?? [];
    const all = await get('/console/sharings/sh-1', 'viewer');
    expect(all.statusCode).toBe(200);
    expect(rows(all.body)).toHaveLength(50);
    expect(all.body).toContain('href="/console/sharings/sh-1?page=50"');
    const last = await get('/console/sharings/sh-1?page=100', 'viewer');
    expect(rows(last.body)).toHaveLength(20);
    expect(last.body).not.toContain('rel="next"');
    expect(last.body).toContain('href="/console/sharings/sh-1"');
    const failed = await get('/console/sharings/sh-1?status=failed', 'viewer');
    expect(rows(failed.body)).toHaveLength(40);
    expect(failed.body).not.toContain('<span class="status delivered">');
    expect(failed.body).toContain('<option value="failed" selected>');
    const one = await get(`/console/sharings/sh-1?phone=${encodeURIComponent('+90 532 000 0007')}`, 'viewer');
    expect(rows(one.body)).toHaveLength(1);
    expect(one.body).toContain('+905320000007');
    expect((await get('/console/sharings/sh-1?status=nonsense', 'viewer')).statusCode).toBe(400);
    const forged = await get('/console/sharings/sh-1?page=forged', 'viewer');
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('page_token: is not a page token of this list');
  });

  it('offers cancel to a member of a scheduled sharing, refuses a viewer and a post without CSRF', async () => {
    expect((await get('/console/sharings/sh-2', 'member')).body).toContain('action="/console/sharings/sh-2/cancel"');
    expect((await get('/console/sharings/sh-2', 'viewer')).body).not.toContain('/cancel"');
    expect((await get('/console/sharings/sh-1', 'member')).body).not.toContain('/cancel"');

    const viewer = await post('/console/sharings/sh-2/cancel', 'viewer', { _csrf: viewerOf('viewer').csrfToken });
    expect(viewer.statusCode).toBe(403);
    const noCsrf = await post('/console/sharings/sh-2/cancel', 'member', {});
    expect(noCsrf.statusCode).toBe(403);
    const wrongCsrf = await post('/console/sharings/sh-2/cancel', 'member', { _csrf: viewerOf('owner').csrfToken });
    expect(wrongCsrf.statusCode).toBe(403);
    const crossSite = await post(
      '/console/sharings/sh-2/cancel',
      'member',
      { _csrf: viewerOf('member').csrfToken },
      { origin: 'https://evil.example' },
    );
    expect(crossSite.statusCode).toBe(403);
    expect(sms.cancels).toEqual([]);

    const ok = await post(
      '/console/sharings/sh-2/cancel',
      'member',
      { _csrf: viewerOf('member').csrfToken },
      { origin: 'http://localhost:8080' },
    );
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/console/sharings/sh-2?cancelled=1');
    expect(sms.cancels).toEqual([{ accountId: 'acc-1', sharingId: 'sh-2' }]);
    expect((await get(ok.headers.location as string, 'member')).body).toContain('Cancelled: 1 recipients will not be texted.');
    const foreign = await post('/console/sharings/sh-9/cancel', 'owner', { _csrf: viewerOf('owner').csrfToken });
    expect(foreign.statusCode).toBe(404);
  });

  it('speaks Turkish by Accept-Language or ?lang=, which a cookie keeps', async () => {
    const tr = await get('/console/', 'owner', { 'accept-language': 'tr-TR,tr;q=0.9,en;q=0.5' });
    expect(tr.body).toContain('<html lang="tr">');
    expect(tr.body).toContain('<h1>Kampanyalar</h1>');
    expect(tr.body).toContain('Çıkış yap');
    const en = await get('/console/', 'owner', { 'accept-language': 'en-US' });
    expect(en.body).toContain('<h1>Campaigns</h1>');
    const switched = await get('/console/?lang=tr', 'owner', { 'accept-language': 'en-US' });
    expect(switched.body).toContain('<h1>Kampanyalar</h1>');
    expect(String(switched.headers['set-cookie'])).toMatch(/^lang=tr; Path=\/console; HttpOnly; SameSite=Lax/);
    const kept = await get('/console/', 'owner', { 'accept-language': 'en-US', cookie: `fs_session=${cookies.owner}; lang=tr` });
    expect(kept.body).toContain('<h1>Kampanyalar</h1>');
    expect(kept.body).toContain('href="/console/?lang=en"');
    const signIn = await get('/console/sign-in?lang=tr');
    expect(signIn.body).toContain('<label for="password">Parola</label>');
  });
});
