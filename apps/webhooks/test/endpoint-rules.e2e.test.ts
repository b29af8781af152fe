import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readStackFile } from '@feedback/dev-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call } from './api.js';

// What an account may do to its endpoints, over HTTP against the running stack (its defaults: at
// most 20 endpoints and 10 test events a minute per account; http to 127.0.0.0/8 allowed).
async function newAccount() {
  const account = await admin('POST', '/accounts', { name: 'webhooks rules e2e' });
  const api = await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'api', name: 'api' });
  return { id: account.id as string, token: api.token as string };
}

describe('webhook endpoint rules end to end', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const create = (token: string, url: string) =>
    call('POST', '/v1/webhook_endpoints', { token, body: { url, events: ['survey.answered'], description: 'rules' } });

  it.each(['::a9fe:a9fe', '::ffff:0:a9fe:a9fe', '64:ff9b:1::a9fe:a9fe', '2002:a9fe:a9fe::1', 'fec0::1', '::7f00:1'])(
    'refuses a URL at [%s], although the stack allows loopback: 400 naming url',
    async (host) => {
      const { token } = await newAccountOnce();
      for (const url of [`https://[${host}]/hook`, `http://[${host}]:8080/hook`]) {
        const res = await create(token, url);
        expect(res.status, res.text).toBe(400);
        expect(res.json).toMatchObject({ code: 13000, errors: { url: expect.stringMatching(/address/) } });
      }
    },
  );

  it("the operator's disable wins: the account sees disabled_reason operator and cannot turn it on", async () => {
    const acc = await newAccount();
    const created = await create(acc.token, `${origin}/operator`);
    expect(created.status, created.text).toBe(201);
    const id = created.json.endpoint.id as string;

    const off = await admin('PATCH', `/accounts/${acc.id}/webhook_endpoints/${id}`, { enabled: false });
    expect(off.endpoint).toMatchObject({ enabled: false, disabled_reason: 'operator' });
    expect((await call('GET', `/v1/webhook_endpoints/${id}`, { token: acc.token })).json.endpoint).toMatchObject({
      enabled: false,
      disabled_reason: 'operator',
    });
    expect((await call('GET', '/v1/webhook_endpoints', { token: acc.token })).json.data[0]).toMatchObject({
      id,
      disabled_reason: 'operator',
    });

    const on = await call('PATCH', `/v1/webhook_endpoints/${id}`, { token: acc.token, body: { enabled: true } });
    expect(on.status, on.text).toBe(403);
    expect(on.json).toMatchObject({ code: 13013, errors: { enabled: expect.stringMatching(/operator/) } });
    expect((await call('GET', `/v1/webhook_endpoints/${id}`, { token: acc.token })).json.endpoint).toMatchObject({ enabled: false });

    const back = await admin('PATCH', `/accounts/${acc.id}/webhook_endpoints/${id}`, { enabled: true });
    expect(back.endpoint).toMatchObject({ enabled: true, disabled_reason: null });
    const offAgain = await call('PATCH', `/v1/webhook_endpoints/${id}`, { token: acc.token, body: { enabled: false } });
    expect(offAgain.status).toBe(200);
    expect((await call('PATCH', `/v1/webhook_endpoints/${id}`, { token: acc.token, body: { enabled: true } })).status).toBe(200);
  });

  it('an account has at most 20 endpoints: the 21st is 409 / 13050', async () => {
    const acc = await newAccount();
    for (let i = 0; i < 20; i++) {
      const res = await create(acc.token, `${origin}/many/${i}`);
      expect(res.status, res.text).toBe(201);
    }
    const over = await create(acc.token, `${origin}/many/20`);
    expect(over.status, over.text).toBe(409);
    expect(over.json).toMatchObject({ code: 13050, errors: { endpoints: expect.stringMatching(/at most 20/) } });
  });

  it('test events are limited per account: 429 / 13005 with Retry-After', async () => {
    const acc = await newAccount();
    const id = (await create(acc.token, `${origin}/tests`)).json.endpoint.id as string;
    // Two clock minutes admit 20 at most, so the 21st is refused wherever the minute turns.
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof fetch>> | undefined;
    for (let i = 0; i < 21 && !refused; i++) {
      const res = await fetch(`${readStackFile().base_url}/v1/webhook_endpoints/${id}/test`, {
        method: 'POST',
        headers: { authorization: `Token token=${acc.token}` },
      });
      statuses.push(res.status);
      if (res.status === 429) refused = res;
      else await res.text();
    }
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(10);
    expect(refused, statuses.join(',')).toBeDefined();
    const seconds = Number(refused!.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    const body = (await refused!.json()) as { errors: Record<string, string> };
    expect(body).toMatchObject({ code: 13005, errors: { test: expect.stringMatching(/at most 10/) } });
    expect(body.errors.retry_after).toBeUndefined();
  });
});

let shared: Promise<{ id: string; token: string }> | undefined;
const newAccountOnce = () => (shared ??= newAccount());
