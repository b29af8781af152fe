import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Type } from '@fastify/type-provider-typebox';
import { createLogger } from '@feedback/kit-core/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally, testApi } from './listeners.js';

// The request log holds route templates and query parameter names, never the URL: paths and
// values carry phones, e-mail addresses and capability tokens (docs/decisions.md "Request logging").
describe('request log lines', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  let api: FastifyInstance;
  let base: string;
  const phone = '905321234567';

  beforeAll(async () => {
    api = await testApi({
      logger: createLogger('gateway-test', 'debug', {}, sink),
      features: [
        {
          routes: () => async (app) => {
            const querystring = Type.Object({
              phone: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
              page_token: Type.Optional(Type.String()),
            });
            app.get('/v1/things/:phone', { schema: { querystring } }, async () => ({ ok: true }));
          },
        },
      ],
    });
    base = await listenLocally(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  /** The access line of the one request sent since `lines` was emptied (written once the response is out). */
  async function accessLine() {
    for (let i = 0; i < 100; i++) {
      const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request');
      if (line) return line;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no access line in ${lines.join('\n')}`);
  }

  it('writes the route template and the declared query names, not the path, the values or the token', async () => {
    lines.length = 0;
    const res = await fetch(`${base}/v1/things/%2B${phone}?phone=%2B${phone}&${phone}=1&page_token=abc&phone=1`, {
      headers: { authorization: `Bearer tok-${phone}` },
    });
    expect(res.status).toBe(200);
    const line = await accessLine();
    expect(line).toMatchObject({ method: 'GET', route: '/v1/things/:phone', query: ['phone', 'page_token'], query_other: 1, status: 200 });
    expect(line).not.toHaveProperty('url');
    expect(lines.join('\n')).not.toContain(phone);
  });

  it('writes no part of an unmatched URL', async () => {
    lines.length = 0;
    const res = await fetch(`${base}/v1/nothing/%2B${phone}?email=a%40example.com`);
    expect(res.status).toBe(404);
    expect(await accessLine()).toMatchObject({ method: 'GET', route: null, query_other: 1, status: 404 });
    expect(lines.join('\n')).not.toMatch(new RegExp(`${phone}|example|nothing`));
  });

  it("logs no byte of a request Node's parser refused, Authorization included", async () => {
    lines.length = 0;
    const socket = connect((api.server.address() as AddressInfo).port, '127.0.0.1');
    socket.write(`GET /s/tok-${phone} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok-${phone}\r\nContent-Length: nope\r\n\r\n`);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    for (let i = 0; i < 50 && !lines.some((l) => l.includes('client error')); i++) await new Promise((r) => setTimeout(r, 10));
    expect(lines.join('\n')).toContain('client error');
    // pino's err serializer would write the parser's rawPacket (the request's bytes, as numbers).
    expect(lines.join('\n')).not.toMatch(new RegExp(`rawPacket|${phone}`));
  });

  it('gives a logged `req` the same view', () => {
    lines.length = 0;
    api.log.info({ req: { method: 'GET', url: `/s/secret-${phone}`, routeOptions: { url: '/s/:token' } } }, 'probe');
    expect(JSON.parse(lines[0]!)).toMatchObject({ req: { method: 'GET', route: '/s/:token' } });
    expect(lines[0]).not.toContain(phone);
  });
});
