import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkClient, SAFARI_IOS } from './link-client.js';
import { waitFor } from './sms-client.js';

const { api, base, shorten } = linkClient();

/** A request for a code on a customer domain (its Host) with the headers a client sends. */
function hit(host: string, code: string, method: string, headers: Record<string, string>) {
  const url = new URL(`${base}/${code}`);
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method, headers: { host, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const IMESSAGE_PREVIEW = 'facebookexternalhit/1.1 Facebot Twitterbot/1.0';

describe("a link's stats, end to end", () => {
  let owner: { id: string; apiToken: string };
  let other: { id: string; apiToken: string };
  let brand: string;

  beforeAll(async () => {
    owner = await api.newAccount('link stats');
    other = await api.newAccount('link stats other');
    brand = `stats-${Math.random().toString(36).slice(2, 8)}.example.com`;
    await api.admin('POST', `/accounts/${owner.id}/domains`, { domain: brand });
  });

  const stats = (token: string, code: string, query = '') =>
    api.request('GET', `/v1/links/${code}/stats${query}`, { headers: { authorization: `Token token=${token}` } });

  it("counts the phone's tap with its device, browser and referrer host; the bot, the preview and the HEAD as bots_excluded; 404 for another account", async () => {
    const made = await shorten(
      { url: `https://example.com/stats/${Date.now()}`, domain: brand },
      { 'content-type': 'application/json', authorization: `Token token=${owner.apiToken}` },
    );
    expect(made.status, made.text).toBe(200);
    const code = String(made.json.id);

    expect(await hit(brand, code, 'GET', { 'user-agent': SAFARI_IOS, referer: 'https://www.instagram.com/p/abc?igsh=private' })).toBe(302);
    expect(await hit(brand, code, 'GET', { 'user-agent': GOOGLEBOT })).toBe(302);
    expect(await hit(brand, code, 'GET', { 'user-agent': IMESSAGE_PREVIEW })).toBe(302);
    expect(await hit(brand, code, 'HEAD', { 'user-agent': `${SAFARI_IOS} person/2` })).toBe(302);

    const body = await waitFor(
      'the click and the excluded redirects to be counted',
      async () => {
        const res = await stats(owner.apiToken, code, '?interval=day&time_zone=Europe/Istanbul');
        expect(res.status, res.text).toBe(200);
        return res.json.clicks === 1 && res.json.bots_excluded === 3 ? res.json : undefined;
      },
      // A shortener restarted just before waits out its old consumer session (30 s) before counting.
      45_000,
    );
    expect(body).toMatchObject({
      interval: 'day',
      time_zone: 'Europe/Istanbul',
      devices: [{ name: 'mobile', clicks: 1 }],
      operating_systems: [{ name: 'iOS', clicks: 1 }],
      browsers: [{ name: 'Mobile Safari', clicks: 1 }],
      // The host only: the page's path and query never reach the stats.
      referrers: [{ name: 'www.instagram.com', clicks: 1 }],
    });
    const series = body.series as Array<{ start: string; clicks: number }>;
    expect(series.reduce((n, b) => n + b.clicks, 0)).toBe(1);
    expect(series.at(-1)!.start).toMatch(/T00:00:00\.000\+03:00$/);

    // Another account's token, and the operator naming another account: 404 like an unknown code.
    const foreign = await stats(other.apiToken, code);
    expect(foreign.status).toBe(404);
    expect(foreign.json.errors).toEqual({ code });
    const admin = (account: string) =>
      api.request('GET', `/admin/v1/accounts/${account}/links/${code}/stats`, { headers: { authorization: `Bearer ${api.adminToken}` } });
    expect((await admin(owner.id)).json).toMatchObject({ clicks: 1, bots_excluded: 3 });
    expect((await admin(other.id)).status).toBe(404);
  }, 60_000);

  it('names a bad range or zone in a 400', async () => {
    const res = await stats(owner.apiToken, 'Abc1234', '?interval=day&time_zone=Mars/Base&from=2026-11-20&to=2026-11-10');
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.errors ?? {}).sort()).toEqual(['time_zone', 'to']);
  });
});
