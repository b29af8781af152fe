import { createServer } from 'node:net';
import { createLogger } from '@feedback/kit-core/runtime';
import type { FastifyInstance } from 'fastify';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoTokenRepository } from '../src/accounts/adapters/mongo/token.repository.js';
import { buildApi } from '../src/http/build-api.js';
import { createMetrics } from '../src/http/metrics.js';

async function closedPort(): Promise<number> {
  const srv = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => srv.once('listening', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

// The gateway's own database is down: a token lookup cannot select a server. That is an outage
// (503 / 13009, retry later), not a bug (500 / 13008).
describe('the gateway while its database is down', () => {
  let mongo: MongoClient;
  let api: FastifyInstance;

  beforeAll(async () => {
    mongo = new MongoClient(`mongodb://127.0.0.1:${await closedPort()}`, { serverSelectionTimeoutMS: 300 });
    api = await buildApi({
      logger: createLogger('gateway-test', 'silent'),
      metrics: createMetrics('gateway-test'),
      tokens: new MongoTokenRepository(mongo.db('gateway_down')),
      adminToken: 'x'.repeat(32),
      readiness: [],
      bodyLimitBytes: 1024 * 1024,
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
    expect(await res.json()).toEqual({
      error_message: 'Service temporarily unavailable',
      data: 'Service temporarily unavailable',
      code: 13009,
      errors: null,
    });
  });
});
