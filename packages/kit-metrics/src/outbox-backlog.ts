import { counter, gauge } from './registry.js';

/** What an outbox holds: entries not confirmed published yet (counted up to a cap) and the oldest one's time. */
export interface OutboxBacklog {
  pending: number;
  oldest: Date | null;
}

export interface OutboxBacklogOptions {
  /** A read is reused for this long, however many scrapers ask (default 10 s). */
  minIntervalMs?: number;
  now?: () => number;
}

interface Entry {
  read: () => Promise<OutboxBacklog>;
  minIntervalMs: number;
  now: () => number;
  /** When the last read began, and its answer (null: it failed). */
  at: number;
  last?: Promise<OutboxBacklog | null>;
}

const reads = new Map<string, Entry>();

const readErrors = counter({
  name: 'outbox_backlog_read_errors_total',
  help: 'Outbox backlog reads that failed (the store away or slow); the backlog series are absent until one succeeds',
  labelNames: ['outbox'] as const,
});

async function current(outbox: string): Promise<OutboxBacklog | null> {
  const entry = reads.get(outbox)!;
  if (!entry.last || entry.now() - entry.at >= entry.minIntervalMs) {
    entry.at = entry.now();
    entry.last = entry.read().catch(() => {
      readErrors.inc({ outbox });
      return null;
    });
  }
  return entry.last;
}

gauge({
  name: 'outbox_pending',
  help: 'Entries of a transactional outbox not confirmed published yet (counted up to the reader’s cap)',
  labelNames: ['outbox'] as const,
  async collect() {
    this.reset();
    for (const outbox of reads.keys()) {
      const b = await current(outbox);
      if (b) this.set({ outbox }, b.pending);
    }
  },
});

gauge({
  name: 'outbox_oldest_age_seconds',
  help: 'Age of the oldest entry of a transactional outbox not confirmed published yet (0 when it is empty)',
  labelNames: ['outbox'] as const,
  async collect() {
    this.reset();
    for (const [outbox, entry] of reads) {
      const b = await current(outbox);
      if (b) this.set({ outbox }, b.oldest ? Math.max(0, (entry.now() - b.oldest.getTime()) / 1000) : 0);
    }
  },
});

/**
 * Exports an outbox's backlog (`outbox_pending`, `outbox_oldest_age_seconds`, label `outbox`),
 * read at scrape time: the reader should be two indexed queries with a count cap and a server
 * time limit, and a read is reused for `minIntervalMs`, so the store's cost is bounded whatever
 * scrapes. A failed read leaves the series out (no stale number) and counts an error.
 */
export function outboxBacklogMetrics(outbox: string, read: () => Promise<OutboxBacklog>, opts: OutboxBacklogOptions = {}): void {
  reads.set(outbox, { read, minIntervalMs: opts.minIntervalMs ?? 10_000, now: opts.now ?? Date.now, at: 0 });
}
