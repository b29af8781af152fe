import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally, testApi, testLink } from './listeners.js';
import { publicError } from './public-error.js';

/** Sends raw bytes and reads the whole answer (the server closes after a parser error). */
function raw(port: number, request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(request);
  });
}

const portOf = (app: FastifyInstance) => (app.server.address() as { port: number }).port;
const publicErrorBody = (code: number, errors: Record<string, string> | null) =>
  expect.objectContaining({ code, errors, error_message: expect.any(String), data: expect.any(String) });

// Both listeners on port 0: what fails before a route (router limits, Node's HTTP parser) answers
// the public error body too, never fastify's `{"error", "code": "FST_ERR_…"}` or Node's empty one.
describe('errors raised before the route', () => {
  let api: FastifyInstance;
  let link: FastifyInstance;

  beforeAll(async () => {
    api = await testApi({
      features: [{ routes: () => async (app) => void app.get('/external/v1/flows/:flow_id', async () => ({ ok: true })) }],
    });
    await listenLocally(api);
    link = await testLink();
    await listenLocally(link);
  });
  afterAll(async () => {
    await api?.close();
    await link?.close();
  });

  it('answers an over-long path parameter with 414 / 13021 in the error body', async () => {
    const res = await fetch(`http://127.0.0.1:${portOf(api)}/external/v1/flows/${'a'.repeat(201)}`);
    expect(res.status).toBe(414);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toEqual(publicError('URI too long', 13021, { url: 'is too long' }));
    expect((await fetch(`http://127.0.0.1:${portOf(api)}/external/v1/flows/${'a'.repeat(200)}`)).status).toBe(200);
  });

  it.each([
    ['api', () => api],
    ['link', () => link],
  ])('answers what Node refuses in the error body on the %s listener', async (_, app) => {
    const port = portOf(app());
    const huge = await raw(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(huge.status).toBe(431);
    expect(huge.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(huge.body)).toEqual(publicErrorBody(13022, { headers: 'are too large' }));
    expect(Number(huge.headers['content-length'])).toBe(Buffer.byteLength(huge.body));

    const badLength = await raw(port, 'POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    expect(badLength.status).toBe(400);
    expect(JSON.parse(badLength.body)).toEqual(publicErrorBody(13000, { request: 'is not valid HTTP' }));

    const badMethod = await raw(port, 'FR@B /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(badMethod.status).toBe(400);
    expect(JSON.parse(badMethod.body)).toEqual(publicErrorBody(13000, { request: 'is not valid HTTP' }));
    expect(badMethod.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an over-long code on the link listener with the HTML 404 page, other methods in JSON', async () => {
    const res = await fetch(`http://127.0.0.1:${portOf(link)}/${'a'.repeat(201)}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.text()).toContain('Link not found');
    const post = await fetch(`http://127.0.0.1:${portOf(link)}/${'a'.repeat(201)}`, { method: 'POST' });
    expect(post.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await post.json()).toHaveProperty('error_message');
  });
});
