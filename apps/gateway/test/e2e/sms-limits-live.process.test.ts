import { randomBytes } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { connectMongo } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The deployment's SMS limits set through one gateway process and in force in another within 5 s,
 * as two replicas of a deployment see them. Both use a database of their own (so the stack's
 * gateway and the tests beside this one keep their limits) and so a notice channel of their own.
 */
describe("the deployment's SMS limits, live across two gateway processes", () => {
  const stack = readStackFile();
  const dbName = `gateway_limits_${randomBytes(4).toString('hex')}`;
  let a: GatewayProcess;
  let b: GatewayProcess;
  const call = (gw: GatewayProcess, method: string, body?: unknown) =>
    fetch(`${gw.baseUrl}/admin/v1/sms_limits`, {
      method,
      headers: { authorization: `Bearer ${stack.admin_token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, unknown> }));

  /** GETs from `gw` until `done` holds or 5 s pass; the last answer. */
  async function seenWithin5s(gw: GatewayProcess, done: (json: Record<string, unknown>) => boolean) {
    const until = Date.now() + 5_000;
    for (;;) {
      const { json } = await call(gw, 'GET');
      if (done(json) || Date.now() > until) return json;
      await sleep(100);
    }
  }

  beforeAll(async () => {
    [a, b] = await Promise.all([startGatewayProcess({ MONGO_DB: dbName }), startGatewayProcess({ MONGO_DB: dbName })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    const mongo = await connectMongo({ url: stack.mongo_url, dbName, logger: createLogger('gateway-test', 'silent') });
    await mongo.db.dropDatabase().catch(() => undefined);
    await mongo.close();
  });

  it('PUT on one is answered as in force and shown by the other with source "stored"; DELETE returns both to the defaults', async () => {
    expect((await call(b, 'GET')).json).toMatchObject({ source: 'default', updated_at: null, accounts_with_own_limits: 0 });

    const put = await call(a, 'PUT', { tiers: [{ name: 'burst', limit: 3, window_seconds: 30 }] });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ source: 'stored', enabled: true, tiers: [{ name: 'burst', limit: 3, window_seconds: 30 }] });
    expect(await seenWithin5s(b, (j) => j.source === 'stored')).toEqual(put.json);

    const off = await call(b, 'PUT', { enabled: false });
    expect(off.json).toMatchObject({ source: 'stored', enabled: false, tiers: [] });
    expect(await seenWithin5s(a, (j) => j.enabled === false)).toMatchObject({ source: 'stored', enabled: false });

    const removed = await call(a, 'DELETE');
    expect(removed.status).toBe(200);
    expect(removed.json).toMatchObject({ source: 'default', updated_at: null });
    expect(await seenWithin5s(b, (j) => j.source === 'default')).toMatchObject({ source: 'default', enabled: true });
    expect((await call(b, 'DELETE')).status).toBe(404);
  });
});
