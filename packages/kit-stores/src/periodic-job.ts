import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@feedback/kit-core';
import { counter, histogram } from '@feedback/kit-metrics';

/** Leader election: `lead` takes or renews the lease for `owner` until `until`, true while `owner` holds it (MongoLease). */
export interface JobLease {
  lead(owner: string, now: Date, until: Date): Promise<boolean>;
}

export interface PeriodicJobOptions {
  /** Names the job in logs and metrics (a bounded label: a constant, never an id). */
  name: string;
  /** The wait between the end of one run and the start of the next. */
  everyMs: number;
  /** Spread of each wait, 0-1: everyMs × (1 ± jitter), so replicas drift apart. Default 0. */
  jitter?: number;
  /** A run right at start (default), or only after the first wait. */
  runAtStart?: boolean;
  /**
   * One run. Answers true when more is due right away (a full batch): the next run starts without
   * a wait. `signal` aborts on stop, for a run that can end early; a stop waits for it either way.
   */
  run: (signal: AbortSignal) => Promise<boolean | void>;
  /** Only the holder of this lease runs (held for `leaseMs`, renewed before each run). Absent: every replica runs. */
  lease?: JobLease;
  /** How long a run's lease is held; default two waits and a minute, so a stopped leader's replica takes over within that. */
  leaseMs?: number;
  logger: Logger;
  /** For tests: the random source of the jitter. */
  random?: () => number;
}

export interface PeriodicJob {
  name: string;
  /** Run now rather than after the wait; a wake during a run makes the next wait return at once. */
  wake(): void;
  /** Stops the loop and waits for the run in flight. */
  stop(): Promise<void>;
  /** The same as stop(), for the shutdown list (kit-core runtime `onShutdown` closes `{name, close}`). */
  close(): Promise<void>;
}

const runs = counter({
  name: 'periodic_job_runs_total',
  help: 'Runs of a background job, by outcome (ok, failed; skipped: another replica holds the lease)',
  labelNames: ['job', 'outcome'],
});
const durations = histogram({
  name: 'periodic_job_run_seconds',
  help: 'How long a background job run took (runs that were not skipped)',
  labelNames: ['job'],
});

/**
 * The one shape of a service's background loop: runs never overlap (the next wait starts when a
 * run ends), each wait is jittered, a run that failed is logged and the loop goes on, stop() waits
 * for the run in flight, and with a lease only one replica runs at a time. Every run is counted in
 * periodic_job_runs_total and timed in periodic_job_run_seconds.
 */
export function startPeriodicJob(o: PeriodicJobOptions): PeriodicJob {
  const stopping = new AbortController();
  const owner = randomUUID();
  const random = o.random ?? Math.random;
  const jitter = Math.min(1, Math.max(0, o.jitter ?? 0));
  const leaseMs = o.leaseMs ?? 2 * o.everyMs + 60_000;

  /** Whether this replica may run now: no lease, or the lease taken or renewed. */
  const leads = async () => {
    if (!o.lease) return true;
    const now = new Date();
    return o.lease.lead(owner, now, new Date(now.getTime() + leaseMs));
  };

  const once = async (): Promise<boolean> => {
    try {
      if (!(await leads())) {
        runs.inc({ job: o.name, outcome: 'skipped' });
        return false;
      }
      const end = durations.startTimer({ job: o.name });
      try {
        const more = (await o.run(stopping.signal)) === true;
        runs.inc({ job: o.name, outcome: 'ok' });
        return more;
      } finally {
        end();
      }
    } catch (err) {
      runs.inc({ job: o.name, outcome: 'failed' });
      o.logger.warn({ err, job: o.name }, `${o.name}: run failed; retried on the next`);
      return false;
    }
  };

  let woken = false;
  let cutWait: (() => void) | undefined;
  const wait = async () => {
    if (!woken) {
      const cut = new AbortController();
      cutWait = () => cut.abort();
      const ms = o.everyMs * (1 - jitter + 2 * jitter * random());
      // Unref'd: a job never keeps a process alive on its own; a stop or a wake ends the wait.
      await sleep(ms, undefined, { signal: AbortSignal.any([stopping.signal, cut.signal]), ref: false }).catch(() => undefined);
      cutWait = undefined;
    }
    woken = false;
  };

  const loop = (async () => {
    if (!(o.runAtStart ?? true)) await wait();
    while (!stopping.signal.aborted) {
      const more = await once();
      if (!more && !stopping.signal.aborted) await wait();
    }
  })();

  const stop = async () => {
    stopping.abort();
    await loop;
  };
  const wake = () => {
    woken = true;
    cutWait?.();
  };
  return { name: o.name, wake, stop, close: stop };
}
