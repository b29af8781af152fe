import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '@feedback/dev-stack';
import { AppError } from '@feedback/kit-core';
import { createGrpcClient } from '@feedback/kit-grpc';
import { ensureTopics } from '@feedback/kit-kafka';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { kafka, stack, uniq, waitFor } from './stack.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const RESOLVE = '/feedback.shortener.v1.ShortenerService/Resolve';

interface Replica {
  port: number;
  child: ChildProcess;
  /** Resolve calls this process has answered with a link so far (its debug line per call). */
  resolves(): number;
  output(): string;
}

/** A shortener from source (as infra/apps.sh starts it), on a free port, logging each answered call at debug. */
async function startReplica(env: Record<string, string>): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: APP_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'debug',
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      // Its own metrics listener: the stack's shortener has the default port.
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(await freePort()),
      MONGO_URL: stack.mongo_url,
      KAFKA_BROKERS: stack.kafka_brokers.join(','),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let resolves = 0;
  let partial = '';
  child.stdout!.on('data', (b: Buffer) => {
    const lines = (partial + b.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (!line.includes('"grpc call')) continue;
      const entry = JSON.parse(line) as { msg?: string; method?: string };
      // Answered ones only: the start-up checks' NOT_FOUND are logged as 'grpc call failed'.
      if (entry.method === RESOLVE && entry.msg === 'grpc call') resolves += 1;
    }
  });
  child.stderr!.on('data', (b: Buffer) => void (out = (out + b.toString()).slice(-20_000)));
  return { port, child, resolves: () => resolves, output: () => out };
}

async function kill(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/**
 * Two real shortener processes on one MongoDB database, one client whose target lists both
 * (`ipv4:` with two addresses, as `dns:///` of a headless Service resolves to one per pod): its calls
 * are spread over both; then, under continuous load, one is killed with SIGKILL and no Resolve (a read,
 * retried) fails: the survivor answers them all. Calls are counted per process from its own log
 * lines (each answered gRPC call is logged at debug with its method).
 */
describe('gRPC calls spread over two replicas', () => {
  const replicas: Replica[] = [];
  const dbName = uniq('shortener_spread').replace('-', '_');
  afterAll(async () => {
    for (const r of replicas) await kill(r.child, 'SIGKILL');
    const mongo = new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 });
    await mongo
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
  });

  it('both processes get calls; after one is killed mid-load every retried call still succeeds, on the survivor', async () => {
    // One click consumer group for both, as replicas of one Deployment share it.
    const env = { MONGO_DB: dbName, CLICKS_TOPIC: uniq('link.clicked'), CLICKS_GROUP: uniq('clicks'), CLICKS_SESSION_TIMEOUT_MS: '6000' };
    await ensureTopics(kafka, [{ topic: env.CLICKS_TOPIC, numPartitions: 2 }]);
    replicas.push(await startReplica(env), await startReplica(env));
    for (const r of replicas) {
      const direct = createGrpcClient(ShortenerServiceClient, `127.0.0.1:${r.port}`, { deadlineMs: 1_000 });
      try {
        await waitFor(
          `the shortener on :${r.port} to answer`,
          async () => {
            if (r.child.exitCode !== null) throw new Error(`shortener exited:\n${r.output()}`);
            const err: unknown = await direct.resolve({ code: 'Nope123' }).catch((e: unknown) => e);
            return err instanceof AppError && err.kind === 'not_found';
          },
          90_000,
        );
      } finally {
        direct.close();
      }
    }
    const client = createGrpcClient(ShortenerServiceClient, `ipv4:${replicas.map((r) => `127.0.0.1:${r.port}`).join(',')}`, {
      deadlineMs: 5_000,
    });
    try {
      const { link } = await client.shorten({ url: 'https://example.com/spread', accountId: '', domain: '' });
      const code = link!.code;

      // 1. Spread: N calls from one client, counted by each process.
      const before = replicas.map((r) => r.resolves());
      const N = 200;
      for (let i = 0; i < N; i += 4) {
        await Promise.all([0, 1, 2, 3].map(() => client.resolve({ code })));
      }
      // Each process buffers its log lines (kit-core's logger flushes them within a second).
      await waitFor('both processes to log their calls', () => replicas.reduce((n, r, i) => n + r.resolves() - before[i]!, 0) >= N, 10_000);
      const spread = replicas.map((r, i) => r.resolves() - before[i]!);
      console.log(`spread: ${N} Resolve calls from one client -> process A ${spread[0]}, process B ${spread[1]}`);
      expect(spread[0]! + spread[1]!).toBe(N);
      expect(Math.min(...spread)).toBeGreaterThanOrEqual(N / 4);

      // 2. Continuous load (8 callers), one process killed with SIGKILL in the middle of it.
      const [survivor, victim] = replicas as [Replica, Replica];
      const failures: unknown[] = [];
      let ok = 0;
      let okAfterKill = 0;
      let killed = false;
      let stop = false;
      const workers = Array.from({ length: 8 }, async () => {
        while (!stop) {
          try {
            const res = await client.resolve({ code });
            expect(res.link?.code).toBe(code);
            ok += 1;
            if (killed) okAfterKill += 1;
          } catch (err) {
            failures.push(err);
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const survivorBefore = survivor.resolves();
      const okBeforeKill = ok;
      await kill(victim.child, 'SIGKILL');
      killed = true;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      stop = true;
      await Promise.all(workers);
      await waitFor('the survivor to log the calls after the kill', () => survivor.resolves() - survivorBefore >= okAfterKill, 10_000);
      const survivorAfter = survivor.resolves() - survivorBefore;
      console.log(
        `kill -9 under load: ${okBeforeKill} calls before the kill (spread over both), ${okAfterKill} after it, ` +
          `${failures.length} failed; the survivor answered ${survivorAfter} calls from the kill on`,
      );
      expect(failures).toEqual([]);
      expect(okAfterKill).toBeGreaterThan(50);
      // Every call after the kill was answered by the survivor (it may also have answered a few of
      // the calls in flight at the kill, retried there).
      expect(survivorAfter).toBeGreaterThanOrEqual(okAfterKill);
    } finally {
      client.close();
    }
  }, 180_000);
});
