import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { readStackFile } from '@feedback/dev-stack';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from './e2e/gateway-process.js';

const stack = readStackFile();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  connection: string | undefined;
}

function call(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

// A private gateway process under a small keep-alive load gets SIGTERM. Every request a client
// managed to send must be answered normally; only new connections may be refused.
describe('SIGTERM to the gateway', () => {
  let gateway: GatewayProcess | undefined;
  const dbName = `gateway_sigterm_${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    await gateway?.kill('SIGKILL');
    const mongo = new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 });
    await mongo
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
  });

  it('answers every request in flight or sent on a kept-alive connection, then exits', async () => {
    const adminToken = randomBytes(24).toString('base64url');
    // Its own database and admin token; the routes asked below never reach a peer.
    gateway = await startGatewayProcess({ ADMIN_TOKEN: adminToken, MONGO_DB: dbName }, 120_000);
    const apiPort = Number(new URL(gateway.baseUrl).port);
    const linkPort = Number(new URL(gateway.linkUrl).port);
    const admin = { authorization: `Bearer ${adminToken}` };
    const created = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: apiPort,
          method: 'POST',
          path: '/admin/v1/accounts',
          headers: { ...admin, 'content-type': 'application/json' },
        },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve((JSON.parse(body) as { id: string }).id));
        },
      );
      req.on('error', reject).end(JSON.stringify({ name: 'sigterm' }));
    });

    // 12 clients, one kept-alive connection each, asking without pause: health checks of both
    // listeners and an account read (a database round trip) on the API.
    const routes = [
      () => [apiPort, 'GET', '/health', {}] as const,
      () => [linkPort, 'GET', '/health', {}] as const,
      () => [apiPort, 'GET', `/admin/v1/accounts/${created}`, admin] as const,
    ];
    const failures: string[] = [];
    let answered = 0;
    let answeredAfterTerm = 0;
    let termAt = 0;
    const clients = Array.from({ length: 12 }, async (_, i) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let n = 0; ; n++) {
        const [port, method, path, headers] = routes[(i + n) % routes.length]!();
        try {
          const res = await call(agent, port, method, path, headers);
          answered++;
          if (termAt) answeredAfterTerm++;
          if (res.status !== 200) failures.push(`${method} ${path}: ${res.status}`);
        } catch (err) {
          // Refused: the request was never accepted, which is how a stopped listener says no.
          if ((err as { code?: string }).code === 'ECONNREFUSED' && termAt) break;
          failures.push(`${method} ${path}: ${(err as Error).message}`);
          if (termAt) break;
        }
      }
      agent.destroy();
    });

    // Under load from the rest of a test run, wait for a few hundred answers rather than a fixed time.
    for (const started = Date.now(); answered < 300 && Date.now() - started < 20_000;) await sleep(50);
    const beforeTerm = answered;
    termAt = Date.now();
    const stopped = gateway.kill('SIGTERM');
    await Promise.all(clients);
    await stopped;

    expect(failures, gateway.output()).toEqual([]);
    expect(beforeTerm).toBeGreaterThan(10); // a slow database makes fewer, longer requests: more of them in flight
    expect(answeredAfterTerm).toBeGreaterThan(0);
    expect(gateway.exitCode()).toBe(0);
  }, 240_000);
});
