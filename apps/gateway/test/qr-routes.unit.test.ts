import { AppError } from '@feedback/kit-core';
import type { ResolveRequest } from '@feedback/proto/feedback/shortener/v1/shortener';
import { request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QrCodeCache } from '../src/links/qr-code.cache.js';
import { listenLocally, testLink } from './listeners.js';
import { publicError } from './public-error.js';
import { readPngQr } from './qr-image.js';

// GET /{code}/qr on the link listener, over an in-memory shortener with the host rule of the real
// one: Known12 was made without a domain (served anywhere but go.a.example), Brand12 for go.a.example.
describe('GET /{code}/qr', () => {
  const resolved: ResolveRequest[] = [];
  const clicked: string[] = [];
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    const links = { Known12: { domain: '', base: 'https://sho.rt' }, Brand12: { domain: 'go.a.example', base: 'https://go.a.example' } };
    const shortener = {
      resolve: async (req: ResolveRequest) => {
        resolved.push(req);
        const link = links[req.code as keyof typeof links];
        const served = link && (link.domain ? req.host === link.domain : req.host !== 'go.a.example');
        if (!served) throw new AppError('not_found', undefined, { code: req.code });
        const { code } = req;
        return {
          link: {
            code,
            fullUrl: 'https://example.com/',
            shortUrl: `${link.base}/${code}`,
            accountId: '',
            domain: link.domain,
            createdAt: '',
          },
        };
      },
      shorten: () => Promise.reject(new Error('not used')),
    };
    app = await testLink({
      publicUrl: 'https://sho.rt',
      shortener,
      links: { clicks: { record: (code) => void clicked.push(code) } },
      qr: { codes: new QrCodeCache(shortener, { maxBytes: 1024 * 1024, ttlMs: 60_000, missTtlMs: 1_000 }) },
    });
    base = await listenLocally(app);
  });
  afterAll(() => app?.close());

  // node:http rather than fetch, which sends its own Host whatever a test sets.
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Headers; bytes: Uint8Array }>((resolve, reject) => {
      request(base + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('error', reject);
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers: h, bytes: new Uint8Array(Buffer.concat(chunks)) });
        });
      })
        .on('error', reject)
        .end();
    });
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it('draws an SVG of the short URL by default, cacheable by clients', async () => {
    const res = await get('/Known12/qr');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(text(res.bytes)).toMatch(/^<svg [^>]*width="300" height="300"/);
  });

  it('draws a PNG of the size asked that reads back as the short URL, on its customer domain for a branded link', async () => {
    const own = await get('/Known12/qr?format=png&size=240&margin=2');
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(readPngQr(own.bytes)).toEqual({ text: 'https://sho.rt/Known12', width: 240, height: 240 });
    const branded = await get('/Brand12/qr?format=png', { host: 'go.a.example' });
    expect(readPngQr(branded.bytes)).toEqual({ text: 'https://go.a.example/Brand12', width: 300, height: 300 });
  });

  it("answers the redirect's 404 page for an unknown code, a malformed one, or one not served on the host", async () => {
    const page = await get('/Unknown1');
    expect(page.status).toBe(404);
    resolved.length = 0;
    for (const [path, host] of [
      ['/Unknown1/qr', undefined],
      ['/Brand12/qr', undefined],
      ['/Known12/qr', 'go.a.example'],
      ['/a-b/qr?format=png', undefined],
    ] as const) {
      const res = await get(path, host ? { host } : {});
      expect(res.status, `${path} on ${host}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(text(res.bytes)).toBe(text(page.bytes));
    }
    // A malformed code is never looked up.
    expect(resolved.map((r) => r.code)).toEqual(['Unknown1', 'Brand12', 'Known12']);
  });

  it.each([
    ['size=49', 'querystring.size'],
    ['size=1001', 'querystring.size'],
    ['size=300.5', 'querystring.size'],
    ['size=', 'querystring.size'],
    ['size=050', 'querystring.size'],
    ['size=300&size=400', 'querystring.size'],
    ['margin=21', 'querystring.margin'],
    ['margin=-1', 'querystring.margin'],
    ['format=jpg', 'querystring.format'],
    ['format=PNG', 'querystring.format'],
    ['colour=red', 'querystring.colour'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const res = await get(`/Known12/qr?${query}`);
    expect(res.status).toBe(400);
    const body = JSON.parse(text(res.bytes)) as { errors: Record<string, string> };
    expect(body).toEqual(publicError(expect.any(String) as unknown as string, 13000, { [field]: expect.any(String) }));
  });

  it('takes the bounds themselves', async () => {
    for (const query of ['size=50&margin=0', 'size=1000&margin=20', 'format=svg&size=999']) {
      expect((await get(`/Known12/qr?${query}`)).status, query).toBe(200);
    }
  });

  it('asks the shortener once per image and counts no click', async () => {
    resolved.length = 0;
    for (let i = 0; i < 3; i++) expect((await get('/Known12/qr?format=png&size=120')).status).toBe(200);
    await get('/Known12/qr?format=png&size=121');
    expect(resolved.map((r) => r.code)).toEqual(['Known12', 'Known12']);
    expect(clicked).toEqual([]);
  });
});
