import { freePort } from '@feedback/dev-stack';
import type { FastifyInstance } from 'fastify';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoTokenRepository } from '../src/accounts/adapters/mongo/token.repository.js';
import { testApi } from './listeners.js';
import { publicError } from './public-error.js';

// The gateway's own database is down: a token lookup cannot select a server. That is an outage
// (503 / 13009, retry later), not a bug (500 / 13008).
describe('the gateway while its database is down', () => {
  let mongo: MongoClient;
  let api: FastifyInstance;

  beforeAll(async () => {
    mongo = new MongoClient(`mongodb://127.0.0.1:${await freePort()}`, { serverSelectionTimeoutMS: 300 });
    api = await testApi({
      tokens: new MongoTokenRepository(mongo.db('gateway_down')),
      features: [
        { routes: (ctx) => async (app) => void app.get('/private', { onRequest: ctx.auth(['api']) }, async () => ({ ok: true })) },
      ],
    });
    await api.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await api?.close();
    await mongo?.close();
  });

  it('answers 503 / 13009 with Retry-After to an authenticated request', async () => {
    const res = await fetch(`http://127.0.0.1:${(api.server.address() as { port: number }).port}/private`, {
      headers: { authorization: 'Bearer fbk_api_x' },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual(publicError('Service temporarily unavailable', 13009, null));
  });
});
