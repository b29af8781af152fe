import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally, testApi, testLink } from './listeners.js';
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
