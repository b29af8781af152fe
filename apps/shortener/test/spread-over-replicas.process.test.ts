import { createGrpcClient } from '@feedback/kit-grpc';
import { ensureTopics } from '@feedback/kit-kafka';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { afterAll, describe, expect, it } from 'vitest';
import { dropDatabase, kafka, startShortener, uniq, untilAnswering, waitFor, type ShortenerProcess } from './stack.js';

const RESOLVE = '/feedback.shortener.v1.ShortenerService/Resolve';

/** Resolve calls a shortener process has answered with a link so far (its debug line per call). */
const resolves = (p: ShortenerProcess) =>
  // Answered ones only: the start-up checks' NOT_FOUND are logged as 'grpc call failed'.
  p.lines().filter((l) => l.method === RESOLVE && l.msg === 'grpc call').length;

/**
 * Two real shortener processes on one MongoDB database, one client whose target lists both
 * (`ipv4:` with two addresses, as `dns:///` of a headless Service resolves to one per pod): its calls
 * are spread over both; then, under continuous load, one is killed with SIGKILL and no Resolve (a read,
 * retried) fails: the survivor answers them all. Calls are counted per process from its own log
 * lines (each answered gRPC call is logged at debug with its method).
 */
describe('gRPC calls spread over two replicas', () => {
  const replicas: ShortenerProcess[] = [];
  const dbName = uniq('shortener_spread').replace('-', '_');
  afterAll(async () => {
    for (const r of replicas) await r.kill('SIGKILL');
    await dropDatabase(dbName);
  });

  it('both processes get calls; after one is killed mid-load every retried call still succeeds, on the survivor', async () => {
    // One click consumer group for both, as replicas of one Deployment share it.
    const env = { MONGO_DB: dbName, CLICKS_TOPIC: uniq('link.clicked'), CLICKS_GROUP: uniq('clicks'), CLICKS_SESSION_TIMEOUT_MS: '6000' };
    await ensureTopics(kafka, [{ topic: env.CLICKS_TOPIC, numPartitions: 2 }]);
    // Each answered gRPC call logged at debug, with its method.
    const replicaEnv = { ...env, LOG_LEVEL: 'debug' };
    replicas.push(await startShortener(replicaEnv), await startShortener(replicaEnv));
    for (const r of replicas) await untilAnswering(r, 90_000);
    const client = createGrpcClient(ShortenerServiceClient, `ipv4:${replicas.map((r) => r.address).join(',')}`, {
      deadlineMs: 5_000,
    });
    try {
      const { link } = await client.shorten({ url: 'https://example.com/spread', accountId: '', domain: '' });
      const code = link!.code;

      // 1. Spread: N calls from one client, counted by each process.
      const before = replicas.map(resolves);
      const N = 200;
      for (let i = 0; i < N; i += 4) {
        await Promise.all([0, 1, 2, 3].map(() => client.resolve({ code })));
      }
      // Each process buffers its log lines (kit-core's logger flushes them within a second).
      await waitFor('both processes to log their calls', () => replicas.reduce((n, r, i) => n + resolves(r) - before[i]!, 0) >= N, 10_000);
      const spread = replicas.map((r, i) => resolves(r) - before[i]!);
      console.log(`spread: ${N} Resolve calls from one client -> process A ${spread[0]}, process B ${spread[1]}`);
      expect(spread[0]! + spread[1]!).toBe(N);
      expect(Math.min(...spread)).toBeGreaterThanOrEqual(N / 4);

      // 2. Continuous load (8 callers), one process killed with SIGKILL in the middle of it.
      const [survivor, victim] = replicas as [ShortenerProcess, ShortenerProcess];
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
      const survivorBefore = resolves(survivor);
      const okBeforeKill = ok;
      await victim.kill('SIGKILL');
      killed = true;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      stop = true;
      await Promise.all(workers);
      await waitFor('the survivor to log the calls after the kill', () => resolves(survivor) - survivorBefore >= okAfterKill, 10_000);
      const survivorAfter = resolves(survivor) - survivorBefore;
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
