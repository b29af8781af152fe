import { beforeAll, describe, expect, it } from 'vitest';
import { linkClient } from './link-client.js';
import { ERROR_KEYS } from './stack-client.js';
import { publicError } from '../public-error.js';

const { api, base, shorten, tap, tapOn, shortenFrom } = linkClient();
const adminHeaders = { authorization: `Bearer ${api.adminToken}`, 'content-type': 'application/json' };
const uniqueHost = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}.example.com`;

describe('POST {shortener_url}/shorten', () => {
  it('answers exactly the documented link object', async () => {
    const url = 'https://survey.example.com/s/7Hq2?lang=tr';
    const res = await shorten({ url });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['createdAt', 'fullUrl', 'id', 'shortUrl']);
    expect(res.json.id).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(res.json.fullUrl).toBe(url);
    expect(res.json.shortUrl).toBe(`${base}/${res.json.id}`);
    expect(res.json.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(String(res.json.createdAt)) - Date.now())).toBeLessThan(60_000);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('gives every call its own unguessable code', async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, () => shorten({ url: 'https://same.example/' }).then((r) => String(r.json.id))),
    );
    expect(new Set(ids).size).toBe(20);
  });

  it('keeps IDNs and percent-encoding exactly, and redirects to the same place', async () => {
    const url = 'https://bücher.example/straße/%E2%9C%93?q=a%2Fb&x=ü#Frag';
    const res = await shorten({ url });
    expect(res.json.fullUrl).toBe(url);
    const hop = await tap(String(res.json.id));
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toBe('https://xn--bcher-kva.example/stra%C3%9Fe/%E2%9C%93?q=a%2Fb&x=%C3%BC#Frag');
    const stats = await api.request('GET', `/admin/v1/links/${res.json.id}`, { headers: adminHeaders });
    expect(stats.json.full_url).toBe(url);
  });
});

describe('GET {shortener_url}/{code}', () => {
  it('redirects with 302 to the full URL, and HEAD answers the same', async () => {
    const url = 'https://example.com/landing?utm_source=sms&a=%20b';
    const { json } = await shorten({ url });
    for (const method of ['GET', 'HEAD']) {
      const hop = await tap(String(json.id), method);
      expect(hop.status, method).toBe(302);
      expect(hop.headers.get('location'), method).toBe(url);
      expect(hop.headers.get('cache-control'), method).toBe('private, no-store');
    }
  });

  it('answers unknown and malformed codes with a plain 404 page, never a redirect', async () => {
    for (const code of ['Nope1234', 'zzzzzzz', 'a', 'has.dot', '%E2%9C%93', 'x'.repeat(100), 'favicon.ico']) {
      const res = await tap(code);
      expect(res.status, code).toBe(404);
      expect(res.headers.get('location'), code).toBeNull();
      expect(res.headers.get('content-type'), code).toMatch(/^text\/html/);
      expect(res.text, code).toContain('Link not found');
    }
  });

  it('redirects every one of a burst of concurrent taps on one code', async () => {
    const url = `https://burst.example/${Date.now()}?x=1`;
    const { json } = await shorten({ url });
    const hops = await Promise.all(Array.from({ length: 300 }, () => tap(String(json.id))));
    expect(hops.filter((h) => h.status === 302 && h.headers.get('location') === url)).toHaveLength(300);
  }, 30_000);
});

describe('bad input never gives a redirect or a 5xx, always the error shape', () => {
  const long = `https://example.com/${'a'.repeat(2100)}`;
  const json = { 'content-type': 'application/json' };
  const cases: Array<[string, unknown, Record<string, string>, number, string]> = [
    ['javascript: URL', { url: 'javascript:alert(document.cookie)' }, json, 400, 'url'],
    ['javascript: with leading space', { url: ' javascript:alert(1)' }, json, 400, 'url'],
    ['data: URL', { url: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==' }, json, 400, 'url'],
    ['file: URL', { url: 'file:///etc/passwd' }, json, 400, 'url'],
    ['ftp: URL', { url: 'ftp://example.com/x' }, json, 400, 'url'],
    ['relative URL', { url: '/just/a/path' }, json, 400, 'url'],
    ['too long', { url: long }, json, 400, 'body.url'], // the schema's maxLength (MAX_URL_LENGTH), as documented
    ['the short domain itself', { url: `${base}/abcdefg` }, json, 400, 'url'],
    ['credentials in the URL', { url: 'https://bank.example@evil.example/login' }, json, 400, 'url'],
    ['raw spaces', { url: 'https://example.com/a b' }, json, 400, 'url'],
    ['empty url', { url: '' }, json, 400, 'body.url'],
    ['missing url', {}, json, 400, 'body.url'],
    ['url not a string', { url: 42 }, json, 400, 'body.url'],
    ['unknown field', { url: 'https://example.com', admin: true }, json, 400, 'body.admin'],
    ['malformed JSON', '{"url": ', json, 400, 'body'],
    ['text/plain body', 'https://example.com', { 'content-type': 'text/plain' }, 415, 'content-type'],
    ['body over 16 KiB', { url: `https://example.com/${'a'.repeat(20_000)}` }, json, 413, 'body'],
  ];
  for (const [name, body, headers, status, field] of cases) {
    it(name, async () => {
      const res = await shorten(body, headers);
      expect(res.status).toBe(status);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(res.json.data).toBe(res.json.error_message);
      expect(Object.keys(res.json.errors ?? {})).toContain(field);
    });
  }
});

describe('customer domains', () => {
  let account: string;
  let domain: string;
  beforeAll(async () => {
    account = (await api.admin('POST', '/accounts', { name: 'domains' })).id!;
    domain = uniqueHost('go');
  });

  it('are configured per account through the admin API, oldest first as the default', async () => {
    const added = await api.request('POST', `/admin/v1/accounts/${account}/domains`, {
      headers: adminHeaders,
      body: JSON.stringify({ domain: domain.toUpperCase() }),
    });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ domain, default: true });
    expect(added.json.created_at).toMatch(/\+00:00$/);
    const second = uniqueHost('links');
    await api.admin('POST', `/accounts/${account}/domains`, { domain: second });
    const list = await api.request('GET', `/admin/v1/accounts/${account}/domains`, { headers: adminHeaders });
    expect((list.json.data as Array<{ domain: string; default: boolean }>).map((d) => [d.domain, d.default])).toEqual([
      [domain, true],
      [second, false],
    ]);
    const del = await api.request('DELETE', `/admin/v1/accounts/${account}/domains/${second}`, {
      headers: { authorization: adminHeaders.authorization },
    });
    expect(del.status).toBe(204);
  });

  it("can be named in POST /shorten once configured, with the owner's API token", async () => {
    const token = (await api.admin('POST', `/accounts/${account}/tokens`, { kind: 'api', name: 'links' })).token!;
    const res = await shorten(
      { url: 'https://example.com/offer', domain },
      { 'content-type': 'application/json', authorization: `Token token=${token}` },
    );
    expect(res.status).toBe(200);
    expect(res.json.shortUrl).toBe(`https://${domain}/${res.json.id}`);
    // Served on its domain only (links-on-domains.e2e.test.ts).
    expect((await tapOn(domain, String(res.json.id))).location).toBe('https://example.com/offer');
  });

  it('belong to one account, refuse links to themselves, and need an existing account', async () => {
    const other = (await api.admin('POST', '/accounts', { name: 'other' })).id!;
    const taken = await api.request('POST', `/admin/v1/accounts/${other}/domains`, {
      headers: adminHeaders,
      body: JSON.stringify({ domain }),
    });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: 13003, errors: { domain } });
    const loop = await shorten({ url: `https://${domain}/anything` });
    expect(loop.status).toBe(400);
    expect(loop.json.errors).toEqual({ url: 'must not point to a short link domain' });
    const bad = await api.request('POST', `/admin/v1/accounts/${account}/domains`, {
      headers: adminHeaders,
      body: JSON.stringify({ domain: 'https://x.example.com/path' }),
    });
    expect(bad.status).toBe(400);
    const ghost = await api.request('POST', '/admin/v1/accounts/no-such-account/domains', {
      headers: adminHeaders,
      body: JSON.stringify({ domain: uniqueHost('x') }),
    });
    expect(ghost.status).toBe(404);
    expect(ghost.json.errors).toEqual({ account_id: 'no-such-account' });
  });
});

// A customer domain carries its owner's brand: a stranger must not point it anywhere.
describe("POST /shorten on a customer domain needs its owner's API token", () => {
  let A: Awaited<ReturnType<typeof api.newAccount>>;
  let B: Awaited<ReturnType<typeof api.newAccount>>;
  let domain: string;
  const json = { 'content-type': 'application/json' };
  const unauthenticated = publicError('Wrong authentication token', 13001, null);
  const denied = publicError('Permission denied', 13013, null);

  beforeAll(async () => {
    [A, B] = await Promise.all([api.newAccount('brand owner'), api.newAccount('stranger')]);
    domain = uniqueHost('brand');
    await api.admin('POST', `/accounts/${A.id}/domains`, { domain });
  });

  it('without a token, or with a wrong or revoked one: 401 / 13001, whatever the body', async () => {
    const revoked = await api.admin('POST', `/accounts/${A.id}/tokens`, { kind: 'api', name: 'soon revoked' });
    await api.admin('DELETE', `/accounts/${A.id}/tokens/${revoked.id}`);
    for (const authorization of [undefined, 'Token token=fbk_api_nope', `Token token= ${revoked.token}`, `Basic ${A.apiToken}`]) {
      for (const body of [
        { url: 'https://evil.example/phish', domain },
        { url: 42, domain: 'nobody.example.com' },
      ]) {
        const res = await shorten(body, { ...json, ...(authorization ? { authorization } : {}) });
        expect(res.status, `${authorization} ${JSON.stringify(body)}`).toBe(401);
        expect(res.json).toEqual(unauthenticated);
      }
    }
  });

  it("with another account's API token, or the owner's integration token: 403 / 13013, and no link", async () => {
    for (const authorization of [`Token token=${B.apiToken}`, `Token token="${B.apiToken}"`, `Bearer ${A.integrationToken}`]) {
      const res = await shorten({ url: 'https://evil.example/phish', domain }, { ...json, authorization });
      expect(res.status, authorization).toBe(403);
      expect(res.json).toEqual(denied);
    }
  });

  it("with the owner's API token (also as `Token token= <TOKEN>`): 200, the link on its domain redirects", async () => {
    const url = `https://example.com/brand/${Date.now()}?utm=sms`;
    for (const authorization of [`Token token=${A.apiToken}`, `Token token= ${A.apiToken}`, `Bearer ${A.apiToken}`]) {
      const res = await shorten({ url, domain: domain.toUpperCase() }, { ...json, authorization });
      expect(res.status, authorization).toBe(200);
      expect(res.json.shortUrl).toBe(`https://${domain}/${res.json.id}`);
      const hop = await tapOn(domain, String(res.json.id));
      expect(hop.status).toBe(302);
      expect(hop.location).toBe(url);
      const stats = await api.request('GET', `/admin/v1/links/${res.json.id}`, { headers: adminHeaders });
      expect(stats.json).toMatchObject({ account_id: A.id, domain, full_url: url });
    }
  });

  it('a domain nobody configured, with a valid API token: 400 naming domain', async () => {
    const res = await shorten(
      { url: 'https://example.com/', domain: uniqueHost('nobody') },
      { ...json, authorization: `Token token=${A.apiToken}` },
    );
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual({ domain: 'is not a configured short link domain' });
  });

  it('without a domain no token is needed, and a token sent along is not read', async () => {
    for (const headers of [json, { ...json, authorization: 'Token token=fbk_api_nope' }]) {
      const res = await shorten({ url: 'https://example.com/public' }, headers);
      expect(res.status).toBe(200);
      expect(res.json.shortUrl).toBe(`${base}/${res.json.id}`);
      const stats = await api.request('GET', `/admin/v1/links/${res.json.id}`, { headers: adminHeaders });
      expect(stats.json).toMatchObject({ account_id: null, domain: null });
    }
  });
});

describe('admin view of a link', () => {
  it('needs the admin token and names an unknown code', async () => {
    const { json } = await shorten({ url: 'https://example.com/admin-view' });
    expect((await api.request('GET', `/admin/v1/links/${json.id}`)).status).toBe(401);
    const ok = await api.request('GET', `/admin/v1/links/${json.id}`, { headers: adminHeaders });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      id: json.id,
      full_url: 'https://example.com/admin-view',
      short_url: json.shortUrl,
      account_id: null,
      domain: null,
    });
    expect(typeof ok.json.clicks).toBe('number');
    const missing = await api.request('GET', '/admin/v1/links/Nope1234', { headers: adminHeaders });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 13002, errors: { code: 'Nope1234' } });
  });

  it('is documented in OpenAPI next to POST /shorten on the link listener', async () => {
    const apiDoc = await api.request('GET', '/openapi.json');
    const paths = Object.keys(apiDoc.json.paths as object);
    for (const p of [
      '/admin/v1/links/{code}',
      '/admin/v1/accounts/{account_id}/domains',
      '/admin/v1/accounts/{account_id}/domains/{domain}',
    ]) {
      expect(paths).toContain(p);
    }
    const linkDoc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(linkDoc.paths)).toContain('/shorten');
  });
});

describe('rate limit of POST /shorten', () => {
  // Another loopback address is another client IP to the gateway; the local stack exempts
  // 127.0.0.1 only, so the rest of the suite is never limited by this test.
  const client = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

  it('answers 429 with Retry-After once a client IP used its requests, and ignores X-Forwarded-For', async () => {
    // Invalid bodies: refused after the limiter, so they count without creating links.
    const first = await shortenFrom(client, '{}');
    expect(first.status).toBe(400);
    const policy = String(first.headers['ratelimit-policy']);
    expect(policy).toMatch(/^"shorten";q=\d+;w=\d+$/);
    const quota = Number(/q=(\d+)/.exec(policy)![1]);

    let last = first;
    for (let sent = 1; sent <= quota && last.status !== 429; sent++) last = await shortenFrom(client, '{}');
    expect(last.status).toBe(429);
    expect(last.json).toEqual(publicError('Too many requests', 13005, null));
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(String(last.headers.ratelimit)).toMatch(/^"shorten";r=0;t=\d+$/);

    const spoofed = await shortenFrom(client, '{"url":"https://example.com"}', { 'x-forwarded-for': '203.0.113.9' });
    expect(spoofed.status).toBe(429);
    expect((await shorten({ url: 'https://example.com/still-fine' })).status).toBe(200);
  }, 60_000);
});
