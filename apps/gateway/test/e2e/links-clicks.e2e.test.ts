import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { linkClient, person } from './link-client.js';

const { api, shorten, tap } = linkClient();
const here = dirname(fileURLToPath(import.meta.url));
const shortenerDir = resolve(here, '../../../shortener');
const tsxLoader = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs')).href;

async function clicksOf(code: string): Promise<number> {
  const res = await api.request('GET', `/admin/v1/links/${code}`, { headers: { authorization: `Bearer ${api.adminToken}` } });
  return Number(res.json.clicks);
}

async function waitForClicks(code: string, want: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let got = await clicksOf(code);
  while (got < want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    got = await clicksOf(code);
  }
  return got;
}

/**
 * Taps in waves, so clicks keep arriving while consumers come and go; each wave is other
 * people (a person's repeat within a minute is not a click). `first`: the first wave's person.
 */
async function tapAll(codes: string[], perCode: number, pauseMs = 0, first = 1) {
  for (let wave = 0; wave < perCode; wave++) {
    const hops = await Promise.all(codes.map((c) => tap(c, 'GET', person(first + wave))));
    expect(hops.every((h) => h.status === 302)).toBe(true);
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}

describe('click counting, end to end', () => {
  it("counts each person's redirect once", async () => {
    const { json } = await shorten({ url: 'https://example.com/counted' });
    const code = String(json.id);
    await tapAll([code], 25);
    await tap(code, 'HEAD', person(1)); // a check, not a visit
    expect(await waitForClicks(code, 25, 20_000)).toBe(25);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await clicksOf(code)).toBe(25);
  }, 40_000);

  it('counts each redirect once while a second consumer joins and is killed mid-stream', async () => {
    const codes = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => String((await shorten({ url: `https://example.com/churn/${i}` })).json.id)),
    );
    // A second shortener replica from the same code and config, in the same consumer group:
    // it takes partitions over, then dies without a goodbye, so its uncommitted clicks are
    // delivered again to the survivor.
    const stack = api.stack;
    const replica = spawn(process.execPath, ['--import', tsxLoader, 'src/main.ts'], {
      cwd: shortenerDir,
      env: {
        ...process.env,
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: '0',
        // Its own metrics listener (any free port): the stack's shortener has the default one.
        METRICS_HOST: '127.0.0.1',
        METRICS_PORT: '0',
        MONGO_URL: stack.mongo_url,
        KAFKA_BROKERS: stack.kafka_brokers.join(','),
        PUBLIC_SHORTENER_URL: stack.shortener_url,
        CLICKS_SESSION_TIMEOUT_MS: '6000',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((r) => replica.once('exit', r));
    try {
      let log = '';
      replica.stdout.on('data', (c: Buffer) => (log += c.toString()));
      replica.stderr.on('data', (c: Buffer) => (log += c.toString()));
      const deadline = Date.now() + 40_000;
      // Joined with partitions of its own (12 codes spread over the topic's partitions).
      while (!/"memberAssignment":\{"link\.clicked":\[\d/.test(log) || !log.includes('shortener service listening')) {
        if (Date.now() > deadline) throw new Error(`replica did not join with partitions:\n${log.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await tapAll(codes, 10, 150);
    } finally {
      replica.kill('SIGKILL');
      await exited;
    }
    await tapAll(codes, 5, 0, 11);
    for (const code of codes) expect(await waitForClicks(code, 15, 60_000), code).toBe(15);
    await new Promise((r) => setTimeout(r, 1_500));
    for (const code of codes) expect(await clicksOf(code), code).toBe(15);
  }, 120_000);
});
