import { AppError, createLogger, currentContext } from '@feedback/kit-core';
import type { CallContext } from '../src/links/links.port.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkResolver } from '../src/links/link.resolver.js';
import { buildLink } from '../src/links/link-listener.js';
import { createMetrics } from '../src/http/metrics.js';

// The link listener on port 0 with the shortener replaced by an in-memory port: both ways a
// redirect is answered (fastify's route on a miss, the fast path on a hit) must look the same.
describe('link listener', () => {
  const logger = createLogger('gateway-test', 'silent');
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
    app = await buildLink({
      logger,
      metrics,
      links: {
        shortener,
        links: new LinkResolver(shortener, null, { maxEntries: 10, ttlMs: 60_000, missTtlMs: 1_000, logger }),
        clicks: { record: (code) => void clicked.push(code) },
        limiter: { consume: async () => ({ allowed: true, exempt: true, limit: 1, windowSec: 1, remaining: 1, resetMs: 0 }) },
        redirectStatus: 302,
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
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

  it('answers a miss (fastify) and a hit (fast path) identically, counting GETs only', async () => {
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
    expect(clicked).toEqual(['Known12', 'Known12']);
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
