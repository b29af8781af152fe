import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readPngQr } from '../qr-image.js';
import { linkClient, person } from './link-client.js';

// GET {shortener_url}/{code}/qr on the running stack (docs/api.md "QR codes"): what a phone's
// camera reads from the image is the short URL POST /shorten answered, and fetching it is no click.
const { api, base, shorten, tap } = linkClient();

async function qr(code: string, query = '', headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/${code}/qr${query}`, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** GET /{code}/qr?format=png with a Host of our choosing (fetch sends its own). */
function qrPngOn(host: string, code: string) {
  const url = new URL(`${base}/${code}/qr?format=png`);
  return new Promise<{ status: number; bytes: Uint8Array }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: new Uint8Array(Buffer.concat(chunks)) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function clicksOf(code: string): Promise<number> {
  const res = await api.request('GET', `/admin/v1/links/${code}`, { headers: { authorization: `Bearer ${api.adminToken}` } });
  return Number(res.json.clicks);
}

async function waitForClicks(code: string, want: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let got = await clicksOf(code);
  while (got < want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    got = await clicksOf(code);
  }
  return got;
}

describe('QR codes of short links, end to end', () => {
  it('draws a PNG that reads back as the short URL, and an SVG document', async () => {
    const made = await shorten({ url: `https://example.com/qr/${Date.now()}` });
    expect(made.status, made.text).toBe(200);
    const { id, shortUrl } = made.json as { id: string; shortUrl: string };

    const png = await qr(id, '?format=png&size=400&margin=2');
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(readPngQr(png.bytes)).toEqual({ text: shortUrl, width: 400, height: 400 });

    const svg = await qr(id);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(new TextDecoder().decode(svg.bytes)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*>.*<\/svg>\s*$/s);
  });

  it("encodes a customer domain's link on that domain, and is 404 on another host as its redirect is", async () => {
    const account = await api.newAccount('qr brand');
    const brand = `qr-${Math.random().toString(36).slice(2, 8)}.example.com`;
    await api.admin('POST', `/accounts/${account.id}/domains`, { domain: brand });
    const made = await shorten(
      { url: `https://example.com/qr-brand/${Date.now()}`, domain: brand },
      { 'content-type': 'application/json', authorization: `Token token=${account.apiToken}` },
    );
    expect(made.status, made.text).toBe(200);
    const { id, shortUrl } = made.json as { id: string; shortUrl: string };
    expect(shortUrl).toBe(`https://${brand}/${id}`);

    const onBrand = await qrPngOn(brand, id);
    expect(onBrand.status).toBe(200);
    expect(readPngQr(onBrand.bytes).text).toBe(shortUrl);
    expect((await qrPngOn(new URL(base).host, id)).status).toBe(404);
  });

  it("answers an unknown code with the redirect's 404 page, and a bad size with 400 naming it", async () => {
    const redirect = await tap('Unknown0qr');
    const missing = await qr('Unknown0qr', '?format=png');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe(redirect.headers.get('content-type'));
    expect(new TextDecoder().decode(missing.bytes)).toBe(redirect.text);

    const made = await shorten({ url: 'https://example.com/qr-bad-size' });
    const bad = await qr(String(made.json.id), '?size=5000');
    expect(bad.status).toBe(400);
    const body = JSON.parse(new TextDecoder().decode(bad.bytes)) as { code: number; errors: Record<string, string> };
    expect(body.code).toBe(13000);
    expect(Object.keys(body.errors)).toEqual(['querystring.size']);
  });

  it("counts no click and leaves the click filter alone: a person's tap after their QR fetches is their one click", async () => {
    const made = await shorten({ url: `https://example.com/qr-clicks/${Date.now()}` });
    const code = String(made.json.id);
    // People's browsers fetching the image: counted, they would be three clicks.
    for (const n of [1, 2, 3]) expect((await qr(code, '?format=png', person(n))).status).toBe(200);
    expect((await qr(code, '', person(1))).status).toBe(200);
    // Had a QR fetch reached the click filter, person 1's tap would be a repeat and count nothing.
    expect((await tap(code, 'GET', person(1))).status).toBe(302);
    expect(await waitForClicks(code, 1, 20_000)).toBe(1);
    // Anything published before the tap has been counted with it or before it; nothing more comes.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await clicksOf(code)).toBe(1);
  }, 40_000);
});
