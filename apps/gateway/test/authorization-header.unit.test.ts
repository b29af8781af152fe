import { request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenWithSecret } from './api-tokens.js';
import { testApi } from './listeners.js';
import { publicError } from './public-error.js';

/** GET with the given Authorization header lines (an array sends the header once per value). */
function get(port: number, path: string, authorization: string | string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A flat [name, value, …] list sends each line as given, a repeated name included.
    const headers = ['host', `127.0.0.1:${port}`, ...[authorization].flat().flatMap((value) => ['authorization', value])];
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

// The authentication hook of every token route, over HTTP (authenticate.unit.test.ts has the parser's cases).
describe('the Authorization header', () => {
  const { secret, token } = tokenWithSecret({ id: 't1', accountId: 'a1', kind: 'api' });
  const { secret: integrationSecret, token: integration } = tokenWithSecret({ id: 't2', accountId: 'a1', kind: 'integration' });
  const adminToken = 'a'.repeat(32);
  let api: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    api = await testApi({
      tokens: { findByHash: async (h) => [token, integration].find((t) => t.hash === h) ?? null },
      adminToken,
      features: [
        {
          routes: (ctx) => async (app) => void app.get('/private', { onRequest: ctx.auth(['api']) }, async () => ({ ok: true })),
          adminRoutes: async (app) => void app.get('/private', async () => ({ ok: true })),
        },
      ],
    });
    await api.listen({ host: '127.0.0.1', port: 0 });
    port = (api.server.address() as { port: number }).port;
  });
  afterAll(() => api?.close());

  it('takes the token in every documented form, with spaces around the value as the original examples write it', async () => {
    for (const form of [
      `Bearer ${secret}`,
      `Token token=${secret}`,
      `Token token="${secret}"`,
      `Token token= ${secret}`,
      `Token token=  ${secret}  `,
      `Token token= "${secret}"`,
    ]) {
      const res = await get(port, '/private', form);
      expect(res.status, form).toBe(200);
      expect(JSON.parse(res.body), form).toEqual({ ok: true });
    }
  });

  it('answers 401 / 13001 for what is no valid token, 403 / 13013 for a valid token of another kind', async () => {
    const refused = async (form: string, status: number, code: number, message: string) => {
      const res = await get(port, '/private', form);
      expect(res.status, form).toBe(status);
      expect(JSON.parse(res.body), form).toEqual(publicError(message, code, null));
    };
    for (const form of ['Token token= ', `Token token= ${secret} x`, `Token token= "${secret}`, 'Token token= fbk_api_nope']) {
      await refused(form, 401, 13001, 'Wrong authentication token');
    }
    for (const form of [`Bearer ${integrationSecret}`, `Token token= ${integrationSecret}`]) {
      await refused(form, 403, 13013, 'Permission denied');
    }
  });

  // Node keeps the first of two Authorization headers; which one a proxy in front read is unknown.
  it('is refused with the uniform 401 when repeated on token routes, whichever comes first', async () => {
    expect((await get(port, '/private', `Bearer ${secret}`)).status).toBe(200);
    for (const pair of [
      [`Bearer ${secret}`, 'Bearer other'],
      ['Bearer other', `Bearer ${secret}`],
      [`Bearer ${secret}`, `Bearer ${secret}`],
    ]) {
      const res = await get(port, '/private', pair);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ code: 13001, errors: null });
    }
  });

  it('is refused when repeated on admin routes too', async () => {
    expect((await get(port, '/admin/v1/private', `Bearer ${adminToken}`)).status).toBe(200);
    expect((await get(port, '/admin/v1/private', [`Bearer ${adminToken}`, 'Bearer x'])).status).toBe(401);
  });
});
