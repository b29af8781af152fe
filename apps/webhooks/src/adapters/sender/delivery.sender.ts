import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@feedback/kit-core';
import { deliverNextDue } from '../../domain/delivery.use-cases.js';
import type { WebhooksDeps } from '../../domain/ports.js';

export interface DeliverySenderOptions {
  deps: WebhooksDeps;
  /** Attempts in flight at once in this process (over every endpoint). */
  concurrency: number;
  /** How long the workers wait, once one found nothing due, before looking again. */
  idleMs: number;
  logger: Logger;
}

/**
 * `concurrency` workers, each claiming one due delivery at a time (with several replicas too: the
 * claim is atomic). Once one worker finds nothing due, all of them rest until the next look, so an
 * idle process asks the database a few times a second, not `concurrency` times as often.
 * close() stops claiming and waits for the attempts in flight.
 */
export function startDeliverySender(opts: DeliverySenderOptions) {
  const stop = new AbortController();
  let idleUntil = 0;
  const rest = (ms: number) => sleep(ms, undefined, { signal: stop.signal }).catch(() => {});
  const worker = async () => {
    while (!stop.signal.aborted) {
      const wait = idleUntil - Date.now();
      if (wait > 0) {
        await rest(wait);
        continue;
      }
      try {
        if (!(await deliverNextDue(opts.deps))) idleUntil = Date.now() + opts.idleMs;
      } catch (err) {
        opts.logger.warn({ err }, 'webhook delivery step failed; retrying');
        await rest(opts.idleMs);
      }
    }
  };
  const running = Promise.all(Array.from({ length: opts.concurrency }, worker));
  return {
    name: 'webhook-sender',
    async close() {
      stop.abort();
      await running;
    },
  };
}
