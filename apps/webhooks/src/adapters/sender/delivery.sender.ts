import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@feedback/kit-core';
import { startPeriodicJob } from '@feedback/kit-stores';
import { LRUCache } from 'lru-cache';
import { attemptDelivery, claimDue, tryDelivery } from '../../domain/delivery.use-cases.js';
import type { AttemptOutcome, Claim, DeliveryHandoff, NewAttempts, WebhooksDeps } from '../../domain/ports.js';
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
  /** A first attempt before the store (attemptNew): whom to tell its outcome. */
  first?: FirstAttempt;
}

interface FirstAttempt {
  /** Takes the outcome while the consumer still waits (true); false once it stored the delivery claimed. */
  report(outcome: AttemptOutcome): boolean;
  /** Whether the consumer stored the deliveries (then an outcome not reported is written by finish()). */
  stored: Promise<boolean>;
  /** The attempt ended, or was dropped. */
  done(): void;
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
    /** Resolves on fire(), or when `signal` aborts. */
    async wait(signal: AbortSignal) {
      if (!pending && !signal.aborted)
        await new Promise<void>((done) => {
          const finish = () => {
            signal.removeEventListener('abort', finish);
            resolve = undefined;
            done();
          };
          signal.addEventListener('abort', finish);
          resolve = finish;
        });
      pending = false;
    },
  };
}

/** Most deliveries a process holds (claimed, in flight or waiting) while its queue moves. */
const MAX_HELD = 5_000;
/** Most deliveries per claim: a claim's queries grow with it, and the slots wait meanwhile. */
const CLAIM_BATCH = 256;
/** A queue whose oldest delivery waited this long is stalled (slow receivers): it takes few more. */
const STALLED_MS = 2_000;
/** How long the events consumer waits for first attempts before it stores those under way claimed. */
const FIRST_ATTEMPT_WAIT_MS = 1_000;

/**
 * `concurrency` attempts in flight, fed from a local queue. New deliveries come from this
 * process's events consumer before they are stored (attemptNew()): it waits up to
 * FIRST_ATTEMPT_WAIT_MS for their outcomes and stores them with them, and an attempt that ends
 * later writes its own outcome once its delivery is stored claimed. A claimer takes the others
 * (retries, another process's lapsed claims, what did not fit) in batches: one claim for many, and
 * with several replicas each delivery goes to one of them. The queue holds up to MAX_HELD while it
 * moves, three times `concurrency` once it stalls, so a claimed delivery starts well within its
 * lease; one whose lease got too short to finish in is left alone, and is due again when the lease
 * ends. The claimer (a kit-stores periodic job) looks again at once after a full batch or wake(),
 * else after `idleMs`, so an idle process asks the database a few times a second. close() stops and waits for the attempts
 * in flight.
 */
export function startDeliverySender(opts: DeliverySenderOptions) {
  const { deps, concurrency, logger } = opts;
  const stop = new AbortController();
  const queue: (Held & { queuedAt: number })[] = [];
  const inFlight = new Set<Promise<void>>();
  const slotFreed = wakeUp();

  const attempt = async (held: Held) => {
    try {
      if (Date.now() + opts.timeoutMs >= held.heldUntil) {
        // Not an error: a queue that stalled behind slow receivers; the claim lapses and is retaken.
        logger.debug({ delivery_id: held.delivery.id }, 'claim too close to its lease end; left to be retaken');
        return;
      }
      if (!held.first) return await attemptDelivery(deps, held.delivery, held.claimId);
      const outcome = await tryDelivery(deps, held.delivery);
      // Too late for the consumer's store: it stored the delivery claimed, so write the outcome.
      if (!held.first.report(outcome) && (await held.first.stored)) await deps.deliveries.finish(held.delivery.id, held.claimId, outcome);
    } catch (err) {
      // Its claim lapses and it is retaken, like a killed process's.
      logger.warn({ err, delivery_id: held.delivery.id }, 'webhook delivery attempt failed; retried after its lease');
    } finally {
      held.first?.done();
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
  const room = () => {
    if (stop.signal.aborted) return 0;
    const stalled = queue.length > 0 && Date.now() - queue[0]!.queuedAt > STALLED_MS;
    return Math.max(0, (stalled ? 3 * concurrency : MAX_HELD) - inFlight.size - queue.length);
  };
  // The deliveries handed to attemptNew in the last 10 minutes (attemptedLately).
  const attempted = new LRUCache<string, true>({ max: 100_000, ttl: 600_000 });
  const take = (claim: Claim) => {
    const heldUntil = claim.heldUntil.getTime();
    const queuedAt = Date.now();
    for (const delivery of claim.deliveries) queue.push({ delivery, claimId: claim.claimId, heldUntil, queuedAt });
    pump();
  };
  const attemptNew = (deliveries: Delivery[], claim: { claimId: string; heldUntil: Date }): NewAttempts => {
    for (const d of deliveries) attempted.set(d.id, true);
    const outcomes: (AttemptOutcome | null)[] = deliveries.map(() => null);
    let waiting = true;
    let stored!: (ok: boolean) => void;
    const storedP = new Promise<boolean>((resolve) => (stored = resolve));
    const runs = deliveries.map(
      (delivery, i) =>
        new Promise<void>((done) =>
          queue.push({
            delivery,
            claimId: claim.claimId,
            heldUntil: claim.heldUntil.getTime(),
            queuedAt: Date.now(),
            first: { report: (o) => waiting && ((outcomes[i] = o), true), stored: storedP, done },
          }),
        ),
    );
    pump();
    const wait = sleep(FIRST_ATTEMPT_WAIT_MS, undefined, { ref: false });
    return {
      // What has ended by now is taken; an attempt ending later writes its own outcome.
      outcomes: Promise.race([Promise.all(runs), wait]).then(() => {
        waiting = false;
        return [...outcomes];
      }),
      stored: (ok) => {
        // Not stored: the event comes again (its offset was not committed) and is a first attempt again.
        if (!ok) for (const d of deliveries) attempted.delete(d.id);
        stored(ok);
      },
    };
  };
  // Claims in batches of at least `concurrency` (a claim per delivery would cost a claim's
  // queries per attempt), while the queue still has work for the slots: no slot waits for a claim.
  // A full claim (or a wait for a slot) runs again at once; a short one waits `idleMs` unless woken.
  const claimer = startPeriodicJob({
    name: 'webhook-sender',
    everyMs: opts.idleMs,
    logger,
    run: async (signal) => {
      const limit = Math.min(CLAIM_BATCH, room());
      if (queue.length > 4 * concurrency || limit < Math.min(concurrency, CLAIM_BATCH)) {
        await slotFreed.wait(signal);
        return true;
      }
      const claim = await claimDue(deps, limit);
      take(claim);
      return claim.deliveries.length >= limit;
    },
  });

  return {
    name: 'webhook-sender',
    room,
    attemptNew,
    attemptedLately: (id: string) => attempted.has(id),
    /** Deliveries were stored due now: look for them now rather than after the idle wait. */
    wake: () => claimer.wake(),
    async close() {
      stop.abort();
      await claimer.stop();
      // What was claimed but not started is retaken after its lease (here or by another replica).
      for (const held of queue.splice(0)) held.first?.done();
      await Promise.all(inFlight);
    },
  } satisfies DeliveryHandoff & { name: string; close(): Promise<void> };
}
