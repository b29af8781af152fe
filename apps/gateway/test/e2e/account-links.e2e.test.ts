import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkClient, person } from './link-client.js';

// An account's links by its API token (docs/api.md "An account's links"), and their expiry and
// click limits on the redirect ("Expiry and click limits"), over HTTP as an integrator and a phone.
const { api, base, shorten, tap } = linkClient();
const uniqueHost = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}.example.com`;
const asApi = (token: string) => ({ authorization: `Token token=${token}`, 'content-type': 'application/json' });

/** GET /{code} with a Host (a customer domain) and a phone's browser, answering status and Location. */
function tapOn(host: string, code: string) {
  const url = new URL(`${base}/${code}`);
  return new Promise<{ status: number; location: string | undefined; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host, ...person() } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('expiry and click limits on the redirect', () => {
  it('max_clicks 1: the first tap redirects, the second (even from another phone) gets the 410 page', async () => {
    const url = `https://example.com/once/${Date.now()}`;
    const made = await shorten({ url, max_clicks: 1, title: 'One use', tags: ['receipt'] });
    expect(made.status, made.text).toBe(200);
    expect(made.json).toMatchObject({ fullUrl: url, max_clicks: 1, title: 'One use', tags: ['receipt'] });
    const code = String(made.json.id);
    const shown = await api.request('GET', `/admin/v1/links/${code}`, { headers: { authorization: `Bearer ${api.adminToken}` } });
    expect(shown.json).toMatchObject({ id: code, max_clicks: 1, title: 'One use', tags: ['receipt'], expires_at: null, expired_url: null });

    // A link preview and a HEAD use nothing up.
    expect((await tap(code, 'GET', { 'user-agent': 'WhatsApp/2.23.20.0 A' })).status).toBe(302);
    expect((await tap(code, 'HEAD', person())).status).toBe(302);
    const first = await tap(code, 'GET', person());
    expect([first.status, first.headers.get('location')]).toEqual([302, url]);
    for (const who of [person(), person(2)]) {
      const again = await tap(code, 'GET', who);
      expect(again.status).toBe(410);
      expect(again.headers.get('content-type')).toMatch(/^text\/html/);
      expect(again.text).toContain('Link expired');
    }
  });

  it('refuses an expires_at already past, naming it', async () => {
    const res = await shorten({ url: 'https://example.com/late', expires_at: '2020-01-01T00:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.json.errors).toHaveProperty('expires_at');
  });
});

describe("an account's links by its API token", () => {
  let account: Awaited<ReturnType<typeof api.newAccount>>;
  let other: Awaited<ReturnType<typeof api.newAccount>>;
  let brand: string;
  const codes: string[] = [];

  beforeAll(async () => {
    [account, other] = await Promise.all([api.newAccount('links owner'), api.newAccount('links other')]);
    brand = uniqueHost('links');
    await api.admin('POST', `/accounts/${account.id}/domains`, { domain: brand });
    for (const [i, tags] of [['shelf'], ['receipt'], ['shelf', 'receipt']].entries()) {
      const res = await shorten({ url: `https://example.com/item/${i}`, domain: brand, tags, title: `Item ${i}` }, asApi(account.apiToken));
      expect(res.status, res.text).toBe(200);
      codes.push(String(res.json.id));
    }
  });

  const get = (path: string, token: string) => api.request('GET', path, { headers: asApi(token) });
  const patch = (path: string, token: string, body: unknown) =>
    api.request('PATCH', path, { headers: asApi(token), body: JSON.stringify(body) });

  it('lists them newest first, by tag, a page at a time, with the names GET /admin/v1/links/{code} uses', async () => {
    const first = await get('/v1/links?page_size=2', account.apiToken);
    expect(first.status, first.text).toBe(200);
    const data = first.json.data as Record<string, unknown>[];
    expect(data.map((l) => l.id)).toEqual([codes[2], codes[1]]);
    expect(data[0]).toMatchObject({
      short_url: `https://${brand}/${codes[2]}`,
      full_url: 'https://example.com/item/2',
      domain: brand,
      title: 'Item 2',
      tags: ['shelf', 'receipt'],
      expires_at: null,
      max_clicks: null,
      expired_url: null,
      clicks: 0,
    });
    const rest = await get(`/v1/links?page_size=2&page_token=${String(first.json.next_page_token)}`, account.apiToken);
    expect((rest.json.data as { id: string }[]).map((l) => l.id)).toEqual([codes[0]]);
    expect(rest.json.next_page_token).toBeNull();
    const shelf = await get('/v1/links?tag=shelf', account.apiToken);
    expect((shelf.json.data as { id: string }[]).map((l) => l.id)).toEqual([codes[2], codes[0]]);
    expect((await get('/v1/links', other.apiToken)).json.data).toEqual([]);
    const admin = await api.request('GET', `/admin/v1/accounts/${account.id}/links?domain=${brand}`, {
      headers: { authorization: `Bearer ${api.adminToken}` },
    });
    expect((admin.json.data as { id: string }[]).map((l) => l.id)).toEqual([...codes].reverse());
  });

  it("gets and patches its own link; another account's is 404; the target is never patched", async () => {
    const code = codes[0]!;
    expect((await get(`/v1/links/${code}`, account.apiToken)).json).toMatchObject({ id: code, title: 'Item 0' });
    const foreign = await get(`/v1/links/${code}`, other.apiToken);
    expect(foreign.status).toBe(404);
    expect(foreign.json.errors).toHaveProperty('code');
    expect((await patch(`/v1/links/${code}`, other.apiToken, { title: 'Mine' })).status).toBe(404);
    const target = await patch(`/v1/links/${code}`, account.apiToken, { url: 'https://evil.example/' });
    expect(target.status).toBe(400);
    expect(target.json.errors).toEqual({ 'body.url': 'is not allowed' });
    const past = await patch(`/v1/links/${code}`, account.apiToken, { expires_at: '2020-01-01T00:00:00Z' });
    expect([past.status, past.json.errors]).toEqual([400, expect.objectContaining({ expires_at: expect.any(String) })]);

    const changed = await patch(`/v1/links/${code}`, account.apiToken, { max_clicks: 5, tags: [], title: null });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({ id: code, full_url: 'https://example.com/item/0', max_clicks: 5, tags: [], title: null });
  });

  it('a link patched to expire a second ahead sends its taps to expired_url once that second has passed', async () => {
    const code = codes[1]!;
    const expiresAt = new Date(Date.now() + 2_000).toISOString();
    const res = await patch(`/v1/links/${code}`, account.apiToken, { expires_at: expiresAt, expired_url: 'https://example.com/over' });
    expect(res.status, res.text).toBe(200);
    expect(Date.parse(String(res.json.expires_at))).toBe(Date.parse(expiresAt));
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) - Date.now() + 100)));
    const hop = await tapOn(brand, code);
    expect([hop.status, hop.location]).toEqual([302, 'https://example.com/over']);
  });
});
