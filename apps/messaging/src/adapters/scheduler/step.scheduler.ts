import { randomUUID } from 'node:crypto';
import type { Logger } from '@feedback/kit-core';
import type { MessagingDeps } from '../../domain/ports.js';
import { runDueSteps } from '../../domain/scheduled-steps.use-cases.js';

/**
 * Runs the scheduler's tick (scheduled-steps.use-cases.ts) every `intervalMs` in this process;
 * one tick at a time. `close` waits for the tick under way: a step cut short by a stop is taken
 * again once its lease runs out.
 */
export function startStepScheduler(o: { deps: MessagingDeps; intervalMs: number; logger: Logger }): { close(): Promise<void> } {
  const owner = randomUUID();
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      await runDueSteps(o.deps, owner);
    } catch (err) {
      o.logger.warn({ err }, 'scheduled SMS steps: tick failed; retried on the next');
    }
  };
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(tick);
  }, o.intervalMs);
  timer.unref();
  return {
    async close() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
