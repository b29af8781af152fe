import type { Logger } from '@feedback/kit-core';
import type { HandOverTracker } from '../ports.js';

export interface HandOverTrackerOptions {
  budgetMs: number;
  maxAttempts: number;
  /** Hand-overs left running at once in this process; beyond it a dispatch waits for its own. */
  capacity: number;
  logger: Logger;
}

/**
 * The hand-overs a dispatch left running (domain/dispatch.use-cases.ts) and the retries they
 * scheduled, held in this process. close() (at shutdown, after the consumers stopped) runs the
 * scheduled retries at once, so their events are published again before the producer closes,
 * and waits for the hand-overs still running (each ends within its provider's timeout).
 */
export class InProcessHandOvers implements HandOverTracker {
  readonly name = 'sms-hand-overs';
  readonly budgetMs: number;
  readonly maxAttempts: number;
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Map<ReturnType<typeof setTimeout>, () => Promise<void>>();
  private closing = false;

  constructor(private readonly opts: HandOverTrackerOptions) {
    this.budgetMs = opts.budgetMs;
    this.maxAttempts = opts.maxAttempts;
  }

  /** Hand-overs left running now (for tests and metrics). */
  get size(): number {
    return this.running.size;
  }

  adopt(work: Promise<void>): boolean {
    if (this.closing || this.running.size >= this.opts.capacity) return false;
    this.track(work, 'a hand-over left running failed after the provider answered');
    return true;
  }

  later(ms: number, fn: () => Promise<void>): void {
    if (this.closing) return this.track(fn(), 'a retry could not be published');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(fn(), 'a retry could not be published');
    }, ms);
    this.timers.set(timer, fn);
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const [timer, fn] of [...this.timers]) {
      clearTimeout(timer);
      this.timers.delete(timer);
      this.track(fn(), 'a retry could not be published at shutdown');
    }
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private track(work: Promise<void>, failure: string): void {
    const tracked: Promise<void> = work
      .catch((err: unknown) => this.opts.logger.error({ err }, failure))
      .finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }
}
