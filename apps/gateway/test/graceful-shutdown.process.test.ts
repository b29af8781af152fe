import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { readStackFile } from '@feedback/dev-stack';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const stack = readStackFile();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

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
  let child: ChildProcess | undefined;
  const dbName = `gateway_sigterm_${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    const mongo = new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 });
    await mongo
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
  });

  it('answers every request in flight or sent on a kept-alive connection, then exits', async () => {
    const [apiPort, linkPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
    const adminToken = randomBytes(24).toString('base64url');
    let out = '';
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: APP_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        API_PORT: String(apiPort),
        LINK_PORT: String(linkPort),
        // Its own metrics listener: the stack's gateway has the default port.
        METRICS_HOST: '127.0.0.1',
        METRICS_PORT: String(metricsPort),
        ADMIN_TOKEN: adminToken,
        MONGO_URL: stack.mongo_url,
        MONGO_DB: dbName,
        REDIS_URL: stack.redis_url,
        KAFKA_BROKERS: stack.kafka_brokers.join(','),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (b: Buffer) => void (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => void (out += b.toString()));
    const exited = once(child, 'exit');

    const setup = new Agent({ keepAlive: false });
    const admin = { authorization: `Bearer ${adminToken}` };
    for (let i = 0; ; i++) {
      const up = await call(setup, linkPort, 'GET', '/health')
        .then(() => call(setup, apiPort, 'GET', '/health'))
        .catch(() => undefined);
      if (up?.status === 200) break;
      if (child.exitCode !== null || i > 1_200) throw new Error(`gateway did not start:\n${out}`);
      await sleep(100);
    }
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
    child.kill('SIGTERM');
    await Promise.all(clients);
    const [code] = await exited;
    setup.destroy();

    expect(failures, out).toEqual([]);
    expect(beforeTerm).toBeGreaterThan(10); // a slow database makes fewer, longer requests: more of them in flight
    expect(answeredAfterTerm).toBeGreaterThan(0);
    expect(code).toBe(0);
  }, 240_000);
});
