import { createLogger } from '@feedback/kit-core/runtime';
import { metricsRegistry } from '@feedback/kit-metrics';
import { describe, expect, it } from 'vitest';
import { startPeriodicJob, type JobLease } from '../src/periodic-job.js';

const logger = createLogger('periodic-job-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** Resolves once `cond` holds (polled); the test's own timeout bounds it. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 1));
}

/** A promise released by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

const runsOf = async (job: string, outcome: string) =>
  (await metricsRegistry.getSingleMetric('periodic_job_runs_total')!.get()).values.find(
    (v) => v.labels.job === job && v.labels.outcome === outcome,
  )?.value ?? 0;

describe('startPeriodicJob', () => {
  it('never overlaps runs, even when a run takes longer than the interval', async () => {
    let active = 0;
    let most = 0;
    let count = 0;
    const job = startPeriodicJob({
      name: 'test-overlap',
      everyMs: 1,
      logger,
      run: async () => {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 10));
        active--;
        count++;
      },
    });
    await until(() => count >= 5);
    await job.stop();
    expect(most).toBe(1);
  });

  it('stop() waits for the run in flight, and starts no run after', async () => {
    const release = gate();
    const started = gate();
    let finished = false;
    let runs = 0;
    const job = startPeriodicJob({
      name: 'test-stop',
      everyMs: 1,
      logger,
      run: async (signal) => {
        runs++;
        started.open();
        await release.opened;
        finished = true;
        expect(signal.aborted).toBe(true);
      },
    });
    await started.opened;
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    expect(finished).toBe(true);
    expect(runs).toBe(1);
  });

  it('runs again without a wait while a run says more is due; a failure is counted and the loop goes on', async () => {
    let count = 0;
    const job = startPeriodicJob({
      name: 'test-more',
      // A wait this long would time the test out: only "more" runs can reach the counts below.
      everyMs: 3_600_000,
      logger,
      run: async () => {
        count++;
        if (count === 2) throw new Error('boom');
        return true;
      },
    });
    await until(() => count >= 2);
    await job.stop();
    expect(await runsOf('test-more', 'failed')).toBe(1);
    // The failed run asked for no "more": the loop waits (an hour) after it.
    expect(count).toBe(2);
    expect(await runsOf('test-more', 'ok')).toBe(1);
  });

  it('runAtStart false: nothing runs before the first wait', async () => {
    let count = 0;
    const job = startPeriodicJob({ name: 'test-late', everyMs: 3_600_000, runAtStart: false, logger, run: async () => void count++ });
    await new Promise((r) => setTimeout(r, 20));
    await job.stop();
    expect(count).toBe(0);
  });

  it('with a lease, only the holder runs; the other counts skipped runs', async () => {
    let holder: string | undefined;
    const lease: JobLease = {
      lead: async (owner) => (holder ??= owner) === owner,
    };
    const ran = { a: 0, b: 0 };
    const start = (k: 'a' | 'b') =>
      startPeriodicJob({ name: `test-lease-${k}`, everyMs: 1, lease, logger, run: async () => void ran[k]++ });
    const a = start('a');
    await until(() => ran.a > 0);
    const b = start('b');
    await until(() => ran.a > 3);
    await Promise.all([a.stop(), b.stop()]);
    expect(ran.b).toBe(0);
    expect(await runsOf('test-lease-b', 'skipped')).toBeGreaterThan(0);
  });

  it('jitter spreads each wait around everyMs', async () => {
    // jitter 1 and random() = 0: the shortest wait, none at all; without the jitter an hour, and the test times out.
    let count = 0;
    const job = startPeriodicJob({
      name: 'test-jitter',
      everyMs: 3_600_000,
      jitter: 1,
      random: () => 0,
      logger,
      run: async () => void count++,
    });
    await until(() => count >= 3);
    await job.stop();
    expect(count).toBeGreaterThanOrEqual(3);
  });

  it('wake() runs at once instead of after the wait, also when it came during a run', async () => {
    let count = 0;
    const during = gate();
    const job = startPeriodicJob({
      name: 'test-wake',
      everyMs: 3_600_000,
      logger,
      run: async () => {
        count++;
        if (count === 2) await during.opened;
      },
    });
    await until(() => count === 1);
    // The first run ended and the hour's wait began: a wake cuts it short.
    await new Promise((r) => setTimeout(r, 5));
    job.wake();
    await until(() => count === 2);
    job.wake();
    during.open();
    await until(() => count === 3);
    await job.stop();
    expect(count).toBe(3);
  });
});
