import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/http/metrics.js';
import { redirectFastPath } from '../src/links/redirect.fast-path.js';

/** What writeHead was given, copied at the call: the fast path fills one header list in place. */
function answer() {
  const written: { status?: number; headers?: Record<string, string> } = {};
  const res = {
    writeHead(status: number, list: string[]) {
      written.status = status;
      written.headers = {};
      for (let i = 0; i < list.length; i += 2) written.headers[list[i]!] = list[i + 1]!;
      return res;
    },
    end() {},
  };
  return { res: res as unknown as ServerResponse, written };
}

const request = (url: string, host: string | undefined, headers: Record<string, string> = {}, method = 'GET') =>
  ({ method, url, headers: { ...(host !== undefined && { host }), ...headers } }) as unknown as IncomingMessage;

describe('redirect fast path', () => {
  // Each host its own links (link.resolver.ts): "sho.rt" the shortener's own, "brand.example" a customer's.
  const links = new Map([
    ['sho.rt/Abcd1234', 'https://a.example/one'],
    ['sho.rt/Efgh5678', 'https://b.example/zwei?ü=1'],
    ['brand.example/Abcd1234', 'https://brand.example/offer'],
  ]);
  const clicked: string[] = [];
  const fast = redirectFastPath({
    links: { cached: (code, host) => links.get(`${host}/${code}`) },
    clicks: { record: (code, req) => void clicked.push(`${req.method} ${code}`) },
    redirectStatus: 302,
    metrics: createMetrics('gateway-test'),
  });
  const tap = (url: string, host: string | undefined, headers?: Record<string, string>, method?: string) => {
    const { res, written } = answer();
    return { answered: fast(request(url, host, headers, method), res), ...written };
  };

  it('answers each request with its own link, host and request id, whatever the previous one was', () => {
    const taps = [
      tap('/Abcd1234', 'Sho.rt:8081'),
      tap('/Efgh5678?utm_source=sms', 'sho.rt'),
      tap('/Abcd1234', 'brand.example.'),
      tap('/Abcd1234', 'sho.rt', { 'x-request-id': 'crm-42' }, 'HEAD'),
      tap('/Efgh5678', 'brand.example'),
      tap('/Abcd1234', undefined),
      tap('/Abcd1234', 'sho.rt', {}, 'POST'),
      tap('/favicon.ico', 'sho.rt'),
    ];
    expect(taps.map((t) => (t.answered ? t.headers!.location : t.answered))).toEqual([
      'https://a.example/one',
      'https://b.example/zwei?%C3%BC=1',
      'https://brand.example/offer',
      'https://a.example/one',
      false, // not a link of that host: fastify's route answers (404)
      false,
      false,
      false,
    ]);
    for (const t of taps.slice(0, 4)) {
      expect(t.status).toBe(302);
      expect(t.headers).toMatchObject({ 'cache-control': 'private, no-store', 'content-length': '0' });
    }
    const ids = taps.slice(0, 4).map((t) => t.headers!['x-request-id']);
    expect(ids[3]).toBe('crm-42');
    expect(new Set(ids.slice(0, 3)).size).toBe(3);
    expect(clicked).toEqual(['GET Abcd1234', 'GET Efgh5678', 'GET Abcd1234', 'HEAD Abcd1234']);
  });
});
