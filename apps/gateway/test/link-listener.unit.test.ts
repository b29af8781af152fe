import { AppError } from '@feedback/kit-core';
import { currentContext } from '@feedback/kit-core/runtime';
import type { ShortenRequest } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { ApiToken } from '../src/accounts/domain/account.js';
import { hashToken, newTokenSecret } from '../src/accounts/domain/token-secret.js';
import type { CallContext } from '../src/links/links.port.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../src/http/metrics.js';
import { listenLocally, testLink } from './listeners.js';
import { publicError } from './public-error.js';

// The link listener on port 0 with the shortener replaced by an in-memory port: both ways a
// redirect is answered (fastify's route on a miss, the fast path on a hit) must look the same.
describe('link listener', () => {
  const metrics = createMetrics('gateway-test');
  const clicked: string[] = [];
  let resolves = 0;
  // What each shortener call carried: its own request id, and any async context around it.
  const calls: Array<{ method: string; requestId?: string; ambient?: string }> = [];
  const note = (method: string, opts?: CallContext) =>
    calls.push({ method, requestId: opts?.context?.requestId, ambient: currentContext()?.requestId });
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    const shortener = {
      resolve: async ({ code }: { code: string }, opts?: CallContext) => {
        resolves++;
        note('resolve', opts);
        if (code !== 'Known12') throw new AppError('not_found', undefined, { code });
        return { link: { code, fullUrl: 'https://bücher.example/a%20b?x=1', shortUrl: '', accountId: '', domain: '', createdAt: '' } };
      },
      shorten: async ({ url }: { url: string }, opts?: CallContext) => {
        note('shorten', opts);
        return {
          link: { code: 'New12345', fullUrl: url, shortUrl: 'http://s.example/New12345', accountId: '', domain: '', createdAt: '' },
        };
      },
    };
    app = await testLink({ metrics, shortener, links: { clicks: { record: (code, req) => void clicked.push(`${req.method} ${code}`) } } });
    base = await listenLocally(app);
  });
  afterAll(() => app?.close());

  const tap = async (path: string, method = 'GET', headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, { method, redirect: 'manual', headers });
    await res.text();
    return {
      status: res.status,
      headers: Object.fromEntries([...res.headers].filter(([k]) => k !== 'date' && k !== 'x-request-id')),
      id: res.headers.get('x-request-id'),
    };
  };

  it('answers a miss (fastify) and a hit (fast path) identically, handing each redirect to the click filter', async () => {
    const first = await tap('/Known12');
    const second = await tap('/Known12');
    const head = await tap('/Known12?utm=x', 'HEAD');
    expect(resolves).toBe(1);
    expect(first).toMatchObject({
      status: 302,
      headers: { location: 'https://xn--bcher-kva.example/a%20b?x=1', 'cache-control': 'private, no-store' },
    });
    expect(second.headers).toEqual(first.headers);
    expect(head.status).toBe(302);
    // Which of them are clicks is click-filter.ts's to decide (click-filter.unit.test.ts).
    expect(clicked).toEqual(['GET Known12', 'GET Known12', 'HEAD Known12']);
    for (const r of [first, second, head]) expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await tap('/Known12', 'GET', { 'x-request-id': 'crm-42' })).id).toBe('crm-42');
  });

  it('leaves unknown codes and other routes to fastify', async () => {
    const missing = await tap('/Unknown1');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect((await tap('/health')).status).toBe(200);
    expect((await tap('/Known12', 'POST')).status).toBe(404);
  });

  it('hands the request id to the shortener itself, with no async context around the call', async () => {
    calls.length = 0;
    await tap('/Other123', 'GET', { 'x-request-id': 'crm-miss' });
    const shortened = await fetch(`${base}/shorten`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'crm-shorten' },
      body: JSON.stringify({ url: 'https://example.com/x' }),
    });
    expect(shortened.status).toBe(200);
    expect(calls).toEqual([
      { method: 'resolve', requestId: 'crm-miss', ambient: undefined },
      { method: 'shorten', requestId: 'crm-shorten', ambient: undefined },
    ]);
  });

  it('observes fast-path redirects in the request histogram', async () => {
    const text = await metrics.registry.metrics();
    const count = /http_request_duration_seconds_count\{[^}]*listener="link",method="GET",route="\/:code",status="302"\} (\d+)/.exec(text);
    expect(Number(count?.[1])).toBe(3); // the miss, the hit, the hit with a request id
  });
});

// POST /shorten naming a customer domain: the owner's API token, checked before the body is
// validated; the shortener (here a fake with its ownership rule) has the last word.
describe('POST /shorten on a customer domain', () => {
  const secrets = { a: newTokenSecret('api'), b: newTokenSecret('api'), aIntegration: newTokenSecret('integration') };
  const token = (id: string, accountId: string, kind: 'api' | 'integration', secret: string): ApiToken => ({
    id,
    accountId,
    kind,
    name: id,
    hash: hashToken(secret),
    createdAt: new Date(),
    revokedAt: null,
  });
  const known = [
    token('ta', 'acc-a', 'api', secrets.a),
    token('tb', 'acc-b', 'api', secrets.b),
    token('ti', 'acc-a', 'integration', secrets.aIntegration),
  ];
  const lookups: string[] = [];
  const shortened: ShortenRequest[] = [];
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    const shortener = {
      resolve: async () => ({
        link: { code: 'Known12', fullUrl: 'https://example.com/', shortUrl: '', accountId: '', domain: '', createdAt: '' },
      }),
      shorten: async (req: ShortenRequest) => {
        shortened.push(req);
        if (req.domain === 'go.a.example' && req.accountId !== 'acc-a') throw new AppError('permission_denied');
        const host = req.domain && req.domain !== 'sho.rt' ? req.domain : 'sho.rt';
        return {
          link: { code: 'New12345', fullUrl: req.url, shortUrl: `https://${host}/New12345`, accountId: '', domain: '', createdAt: '' },
        };
      },
    };
    app = await testLink({
      publicUrl: 'https://sho.rt',
      shortener,
      links: { tokens: { findByHash: async (hash) => (lookups.push(hash), known.find((t) => t.hash === hash) ?? null) } },
    });
    base = await listenLocally(app);
  });
  afterAll(() => app?.close());

  const post = async (body: unknown, authorization?: string) => {
    const res = await fetch(`${base}/shorten`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const unauthenticated = publicError('Wrong authentication token', 13001, null);
  const denied = publicError('Permission denied', 13013, null);

  it('needs no token without a domain or with the own domain, and reads none', async () => {
    lookups.length = 0;
    shortened.length = 0;
    for (const body of [{ url: 'https://example.com/a' }, { url: 'https://example.com/b', domain: 'SHO.rt.' }]) {
      const res = await post(body, 'Token token=whatever');
      expect(res.status, JSON.stringify(body)).toBe(200);
    }
    expect(lookups).toEqual([]);
    expect(shortened.map((r) => r.accountId)).toEqual(['', '']);
  });

  it('answers 401 without a valid token, whatever else the body holds, and calls nothing', async () => {
    shortened.length = 0;
    for (const authorization of [undefined, 'Token token=fbk_api_nope', `Basic ${secrets.a}`, `Token token= ${secrets.a} x`]) {
      for (const body of [
        { url: 'https://example.com/', domain: 'go.a.example' },
        { domain: 'nobody.example', url: 42 },
      ]) {
        const res = await post(body, authorization);
        expect(res.status, `${authorization} ${JSON.stringify(body)}`).toBe(401);
        expect(res.json).toEqual(unauthenticated);
      }
    }
    expect(shortened).toEqual([]);
  });

  it('answers 403 for a token of another kind, before calling the shortener', async () => {
    const res = await post({ url: 'https://example.com/', domain: 'go.a.example' }, `Bearer ${secrets.aIntegration}`);
    expect(res.status).toBe(403);
    expect(res.json).toEqual(denied);
    expect(shortened).toEqual([]);
  });

  it("passes the token's account to the shortener, whose refusal of another account's domain is 403", async () => {
    const theirs = await post({ url: 'https://example.com/', domain: 'go.a.example' }, `Token token=${secrets.b}`);
    expect(theirs.status).toBe(403);
    expect(theirs.json).toEqual(denied);
    const own = await post({ url: 'https://example.com/own', domain: 'go.a.example' }, `Token token= "${secrets.a}"`);
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ id: 'New12345', fullUrl: 'https://example.com/own', shortUrl: 'https://go.a.example/New12345' });
    expect(shortened.map((r) => [r.domain, r.accountId])).toEqual([
      ['go.a.example', 'acc-b'],
      ['go.a.example', 'acc-a'],
    ]);
  });

  it('validates the body once the token is good (400 naming the field)', async () => {
    const res = await post({ url: 42, domain: 'go.a.example' }, `Token token=${secrets.a}`);
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual({ 'body.url': 'must be string' });
  });

  it('looks no token up on redirects', async () => {
    lookups.length = 0;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/Known12`, { redirect: 'manual', headers: { authorization: `Token token=${secrets.a}` } });
      expect(res.status).toBe(302);
    }
    expect(lookups).toEqual([]);
  });
});
