import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.js';
import { ERROR_KEYS } from './stack-client.js';
import { populatedAccount, type TenantFixture } from './tenant-fixture.js';

/**
 * A gateway whose survey service is away: the pod stays ready (its Service keeps it), the survey
 * routes answer 503 in the error shape, and everything that does not need the survey service
 * (flows, the link listener, the probes) keeps answering (docs/decisions.md "Probes").
 */
describe('a gateway with one peer down', { timeout: 120_000 }, () => {
  let fixture: TenantFixture;
  let gateway: GatewayProcess;
  // A port that refuses: bound, then closed, so nothing listens there.
  let deadAddr: string;

  beforeAll(async () => {
    fixture = await populatedAccount('peer-down');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    deadAddr = `127.0.0.1:${(probe.address() as { port: number }).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    gateway = await startGatewayProcess({ SURVEY_GRPC_ADDR: deadAddr });
  }, 120_000);

  afterAll(async () => {
    await gateway?.kill();
  });

  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };

  it('stays ready, and names the failing peer on /health/dependencies', async () => {
    expect(await call('GET', `${gateway.baseUrl}/health`)).toMatchObject({ status: 200, json: { status: 'ok' } });
    expect(await call('GET', `${gateway.baseUrl}/ready`)).toMatchObject({ status: 200, json: { status: 'ready' } });
    const deps = await call('GET', `${gateway.baseUrl}/health/dependencies`);
    expect(deps.status).toBe(503);
    expect(deps.json).toEqual({
      status: 'degraded',
      checks: { mongo: 'ok', flow: 'ok', file: 'ok', shortener: 'ok', survey: 'failing', messaging: 'ok', webhooks: 'ok' },
    });
  });

  it('answers the survey routes with 503 / 13009 in the error shape', async () => {
    const res = await call('POST', `${gateway.baseUrl}/external/v1/nodes/${fixture.ids.node_id}/active_surveys`, fixture.integrationToken, {
      customer: { email: `someone-${fixture.ids.node_id}@example.com` },
    });
    expect(res.status).toBe(503);
    expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
    expect(res.json.code).toBe(13009);
    expect(res.headers.get('retry-after')).toBe('5');
  });

  it('keeps serving the routes that do not need it: flow details and the link listener', async () => {
    const flow = await call('GET', `${gateway.baseUrl}/external/v1/flows/${fixture.ids.flowId}`, fixture.integrationToken);
    expect(flow.status).toBe(200);
    expect(flow.json.id).toBe(fixture.ids.flowId);

    // The account's links are on its customer domain, served under its own Host only.
    const hop = await new Promise<{ status: number; location: string }>((resolve, reject) => {
      const url = new URL(`${gateway.linkUrl}/${fixture.ids.code}`);
      request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: fixture.ids.domain! } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? '' }));
      })
        .on('error', reject)
        .end();
    });
    expect(hop.status).toBe(302);
    expect(new URL(hop.location).pathname).toBe(`/s/${fixture.ids.token}`);
    expect(await call('GET', `${gateway.linkUrl}/health`)).toMatchObject({ status: 200 });
  });
});
