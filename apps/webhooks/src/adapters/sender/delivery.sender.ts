import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@feedback/kit-core';
import { attemptDelivery, claimDue } from '../../domain/delivery.use-cases.js';
import type { WebhooksDeps } from '../../domain/ports.js';
import type { Delivery } from '../../domain/webhook.js';

export interface DeliverySenderOptions {
  deps: WebhooksDeps;
  /** Attempts in flight at once in this process (over every endpoint). */
  concurrency: number;
  /** How long the claimer waits, once it found nothing more due, before looking again (unless woken). */
  idleMs: number;
  /** An attempt's longest wait for its answer: a claim is started only with this much lease left. */
  timeoutMs: number;
  logger: Logger;
}

interface Held {
  delivery: Delivery;
  claimId: string;
  heldUntil: number;
}

/** A wake-up that is not lost when it comes while nobody waits: the next wait returns at once. */
function wakeUp() {
  let pending = false;
  let resolve: (() => void) | undefined;
  return {
    fire() {
      pending = true;
      resolve?.();
    },
    /** Resolves on fire(), after `ms` if given, or when `signal` aborts. */
    async wait(signal: AbortSignal, ms?: number) {
      if (!pending && !signal.aborted)
        await new Promise<void>((done) => {
          const finish = () => {
            if (timer) clearTimeout(timer);
            signal.removeEventListener('abort', finish);
            resolve = undefined;
            done();
          };
          const timer = ms === undefined ? undefined : setTimeout(finish, ms);
          signal.addEventListener('abort', finish);
          resolve = finish;
        });
      pending = false;
    },
  };
}

/**
 * One claimer and `concurrency` attempts in flight. The claimer takes due deliveries in batches
 * (one claim for many; with several replicas each delivery goes to one of them) and keeps at most
 * twice `concurrency` of them waiting for a free slot, so a claimed delivery starts well within its
 * lease; one whose lease got too short to finish in is left alone, and is due again when the lease
 * ends. The claimer looks again at once after a full batch, when wake() says new deliveries were
 * stored, or after `idleMs`, so an idle process asks the database a few times a second.
 * close() stops claiming and waits for the attempts in flight.
 */
export function startDeliverySender(opts: DeliverySenderOptions) {
  const { deps, concurrency, logger } = opts;
  const stop = new AbortController();
  const queue: Held[] = [];
  const inFlight = new Set<Promise<void>>();
  const stored = wakeUp();
  const slotFreed = wakeUp();

  const attempt = async (held: Held) => {
    try {
      if (Date.now() + opts.timeoutMs >= held.heldUntil) {
        logger.warn({ delivery_id: held.delivery.id }, 'claim too close to its lease end; left to be retaken');
        return;
      }
      await attemptDelivery(deps, held.delivery, held.claimId);
    } catch (err) {
      // Its claim lapses and it is retaken, like a killed process's.
      logger.warn({ err, delivery_id: held.delivery.id }, 'webhook delivery attempt failed; retried after its lease');
    }
  };
  const pump = () => {
    while (inFlight.size < concurrency && queue.length > 0 && !stop.signal.aborted) {
      const run: Promise<void> = attempt(queue.shift()!).finally(() => {
        inFlight.delete(run);
        slotFreed.fire();
        pump();
      });
      inFlight.add(run);
    }
  };

  const claimer = async () => {
    while (!stop.signal.aborted) {
      // Claims in batches of at least `concurrency`: one claim per delivery would cost a
      // claim's queries per attempt. Held at most: three times `concurrency`.
      const room = 3 * concurrency - inFlight.size - queue.length;
      if (queue.length > concurrency || room <= 0) {
        await slotFreed.wait(stop.signal);
        continue;
      }
      try {
        const claim = await claimDue(deps, room);
        const heldUntil = claim.heldUntil.getTime();
        for (const delivery of claim.deliveries) queue.push({ delivery, claimId: claim.claimId, heldUntil });
        pump();
        if (claim.deliveries.length < room) await stored.wait(stop.signal, opts.idleMs);
      } catch (err) {
        logger.warn({ err }, 'claiming webhook deliveries failed; retrying');
        await sleep(opts.idleMs, undefined, { signal: stop.signal }).catch(() => {});
      }
    }
  };
  const claiming = claimer();

  return {
    name: 'webhook-sender',
    /** New deliveries were stored: look for due ones now rather than after the idle wait. */
    wake: () => stored.fire(),
    async close() {
      stop.abort();
      await claiming;
      // What was claimed but not started is retaken after its lease (here or by another replica).
      queue.length = 0;
      await Promise.all(inFlight);
    },
  };
}
