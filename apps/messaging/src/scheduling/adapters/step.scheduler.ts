import { randomUUID } from 'node:crypto';
import type { Logger } from '@feedback/kit-core';
import { startPeriodicJob } from '@feedback/kit-stores';
import type { StatusDeps } from '../../status/ports.js';
import type { SchedulingDeps } from '../ports.js';
import { runDueSteps, STEP_LEASE_MS } from '../domain/scheduled-steps.use-cases.js';
import { newSweepState, raiseCompletedSharings } from '../../status/domain/sharing-completion.use-cases.js';

/**
 * Runs the scheduler's tick (scheduled-steps.use-cases.ts) every `intervalMs` in this process, a
 * kit-stores periodic job: one tick at a time, and every `completionEveryMs` the sharing.completed sweep
 * (sharing-completion.use-cases.ts), both only while this process leads. `close` waits for the
 * tick under way: a step cut short by a stop is taken again once its lease runs out, a sweep cut
 * short runs again on the next leader's.
 */
export function startStepScheduler(o: {
  deps: SchedulingDeps;
  /** What the sharing.completed sweep is given. */
  completion: StatusDeps;
  intervalMs: number;
  completionEveryMs: number;
  logger: Logger;
}): {
  close(): Promise<void>;
} {
  const owner = randomUUID();
  let sweptAt = 0;
  const sweep = newSweepState();
  const tick = async () => {
    try {
      await runDueSteps(o.deps, owner);
    } catch (err) {
      o.logger.warn({ err }, 'scheduled SMS steps: tick failed; retried on the next');
    }
    if (Date.now() - sweptAt < o.completionEveryMs) return;
    sweptAt = Date.now();
    try {
      const now = o.deps.clock.now();
      if (await o.deps.jobs.lead(owner, now, new Date(now.getTime() + STEP_LEASE_MS))) await raiseCompletedSharings(o.completion, sweep);
    } catch (err) {
      o.logger.warn({ err }, 'sharing.completed sweep failed; retried on the next');
    }
  };
  return startPeriodicJob({ name: 'step-scheduler', everyMs: o.intervalMs, runAtStart: false, logger: o.logger, run: tick });
}
