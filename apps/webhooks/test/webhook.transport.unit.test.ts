import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressGuard, parseCidrs } from '../src/adapters/http/address-guard.js';
import { httpTransport } from '../src/adapters/http/webhook.transport.js';

// The HTTP client against a real server on 127.0.0.1: refused addresses, redirects, bounded reads.
describe('webhook transport', () => {
  let server: Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
      if (req.url === '/big') return void res.writeHead(200).end('x'.repeat(64 * 1024));
      if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 2_000);
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const local = httpTransport({ guard: addressGuard(parseCidrs('127.0.0.0/8')), allowHttp: true, timeoutMs: 1_000 });

  it('refuses loopback, by name and by address, without connecting, unless its range is allowed', async () => {
    const strict = httpTransport({ guard: addressGuard(), allowHttp: true, timeoutMs: 1_000 });
    const before = hits;
    for (const url of [`http://localhost:${port}/ok`, `http://127.0.0.1:${port}/ok`]) {
      const res = await strict.send(url, {}, '{}');
      expect(res).toMatchObject({ statusCode: 0, error: expect.stringMatching(/^refused: /) });
    }
    expect(hits).toBe(before);
    expect(await local.send(`http://localhost:${port}/ok`, {}, '{}')).toMatchObject({ statusCode: 200, responseBody: 'ok' });
  });

  it('refuses plain http unless allowed', async () => {
    const httpsOnly = httpTransport({ guard: addressGuard(parseCidrs('127.0.0.0/8')), allowHttp: false, timeoutMs: 1_000 });
    expect((await httpsOnly.send(`http://127.0.0.1:${port}/ok`, {}, '{}')).error).toMatch(/https/);
  });

  it('the metadata address stays refused with every range allowed', async () => {
    const open = httpTransport({ guard: addressGuard(parseCidrs('0.0.0.0/0')), allowHttp: true, timeoutMs: 1_000 });
    expect((await open.send('http://169.254.169.254/latest/meta-data', {}, '{}')).error).toMatch(/refused: .*metadata/);
  });

  it('does not follow a redirect, reads at most 1 KiB, gives up after the timeout', async () => {
    expect(await local.send(`http://127.0.0.1:${port}/redirect`, {}, '{}')).toMatchObject({ statusCode: 302 });
    const big = await local.send(`http://127.0.0.1:${port}/big`, {}, '{}');
    expect(big.statusCode).toBe(200);
    expect(big.responseBody).toHaveLength(1024);
    expect(await local.send(`http://127.0.0.1:${port}/slow`, {}, '{}')).toMatchObject({
      statusCode: 0,
      error: expect.stringMatching(/no answer within 1000 ms/),
    });
  });
});
