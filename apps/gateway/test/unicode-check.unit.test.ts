import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally, testApi, testLink } from './listeners.js';
import { MAX_JSON_DEPTH } from '../src/http/strict-text.js';
import { publicError } from './public-error.js';

// JSON's "\ud800" is a lone surrogate; protobuf's UTF-8 encoding would store U+FFFD in its place
// before the service could refuse it. So both listeners refuse it before any gRPC call.
describe('lone UTF-16 surrogates in a JSON body', () => {
  const received: unknown[] = [];
  let api: FastifyInstance;
  let link: FastifyInstance;
  const portOf = (app: FastifyInstance) => (app.server.address() as { port: number }).port;
  const post = (app: FastifyInstance, path: string, json: string) =>
    fetch(`http://127.0.0.1:${portOf(app)}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });

  beforeAll(async () => {
    api = await testApi({
      features: [{ routes: () => async (app) => void app.post('/directories', async (req) => (received.push(req.body), { ok: true })) }],
    });
    await listenLocally(api);
    link = await testLink({
      shortener: {
        resolve: async () => Promise.reject(new Error('not used')),
        shorten: async (req: unknown) => (
          received.push(req),
          { link: { code: 'abc1234', fullUrl: '', shortUrl: 'http://s/abc1234', accountId: '', domain: '', createdAt: '' } }
        ),
      },
    });
    await listenLocally(link);
  });
  afterAll(async () => {
    await api?.close();
    await link?.close();
  });

  it('answers 400 naming the field on the API listener, and lets a surrogate pair through', async () => {
    const bad = await post(api, '/directories', '{"name": "sur\\udc00"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual(publicError('An error occured', 13000, { 'body.name': 'is not valid Unicode' }));
    const nested = await post(api, '/directories', '{"q": [{"title": "\\ud800x"}]}');
    expect(await nested.json()).toMatchObject({ errors: { 'body.q[0].title': 'is not valid Unicode' } });
    expect(received).toEqual([]);
    expect((await post(api, '/directories', '{"name": "\\ud83d\\ude00"}')).status).toBe(200);
    expect(received).toEqual([{ name: '😀' }]);
  });

  it('answers 400 for POST /shorten on the link listener without calling the shortener', async () => {
    received.length = 0;
    const bad = await post(link, '/shorten', '{"url": "https://example.com/\\ud800"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 13000, errors: { 'body.url': 'is not valid Unicode' } });
    expect(received).toEqual([]);
  });
});

// Bytes that are not UTF-8 would become U+FFFD and be stored as if sent; nesting deep enough to
// overflow a recursive walk was a 500 with a stack trace in the log. Both are a 400 before parsing.
describe('JSON bodies and query strings the gateway refuses before parsing', () => {
  const received: unknown[] = [];
  let api: FastifyInstance;
  let base: string;
  const post = (body: string | Buffer) =>
    fetch(`${base}/directories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  beforeAll(async () => {
    api = await testApi({
      features: [
        {
          routes: () => async (app) => {
            app.post('/directories', async (req) => (received.push(req.body), { ok: true }));
            app.get('/things', async (req) => (received.push(req.query), { ok: true }));
          },
        },
      ],
    });
    base = await listenLocally(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers 400 naming the body for bytes that are not UTF-8, and takes valid UTF-8', async () => {
    for (const bytes of [[0xff, 0xfe], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      const body = Buffer.concat([Buffer.from('{"url": "https://example.com/'), Buffer.from(bytes), Buffer.from('"}')]);
      const res = await post(body);
      expect(res.status, String(bytes)).toBe(400);
      expect(await res.json()).toEqual(publicError('An error occured', 13000, { body: 'is not valid UTF-8' }));
    }
    expect(received).toEqual([]);
    expect((await post('{"name": "Kadıköy 😀"}')).status).toBe(200);
    expect(received).toEqual([{ name: 'Kadıköy 😀' }]);
  });

  it(`answers 400 for nesting deeper than ${MAX_JSON_DEPTH} levels, at any depth that used to overflow the stack`, async () => {
    received.length = 0;
    for (const depth of [MAX_JSON_DEPTH + 1, 4_000, 100_000]) {
      const res = await post(`${'['.repeat(depth)}${']'.repeat(depth)}`);
      expect(res.status, String(depth)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 13000, errors: { body: expect.stringContaining('nested too deeply') } });
      const objects = await post(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
      expect(objects.status, String(depth)).toBe(400);
    }
    expect(received).toEqual([]);
    const deepest = `${'['.repeat(MAX_JSON_DEPTH - 1)}{"n": "[[[[\\"]]"}${']'.repeat(MAX_JSON_DEPTH - 1)}`;
    expect((await post(deepest)).status).toBe(200);
    expect(received).toHaveLength(1);
  });

  it('still refuses what is not JSON, prototype poisoning included', async () => {
    expect(await (await post('{"a": ')).json()).toMatchObject({ errors: { body: 'is not valid JSON' } });
    expect((await post('{"__proto__": {"x": 1}}')).status).toBe(400);
    expect(await (await post('')).json()).toMatchObject({ errors: { body: 'must not be empty' } });
  });

  it('answers 400 naming the query parameter whose %-escapes are not UTF-8', async () => {
    received.length = 0;
    for (const q of ['phone=%FF%FE', 'phone=%C3', 'phone=%ED%A0%80', 'a=1&phone=%2B90%E2%82']) {
      const res = await fetch(`${base}/things?${q}`);
      expect(res.status, q).toBe(400);
      expect(await res.json()).toMatchObject({ code: 13000, errors: { 'querystring.phone': 'is not valid UTF-8' } });
    }
    expect(await (await fetch(`${base}/things?%FF=1`)).json()).toMatchObject({ errors: { querystring: 'is not valid UTF-8' } });
    expect(received).toEqual([]);
    expect((await fetch(`${base}/things?phone=%2B90%20532&name=Kad%C4%B1k%C3%B6y&pct=100%`)).status).toBe(200);
    expect(received).toEqual([{ phone: '+90 532', name: 'Kadıköy', pct: '100%' }]);
  });
});
