import type { ClickTallyRepository } from './ports.js';

/** What one click came from; '' where unknown (the gateway's ClickDetails). */
export interface ClickDetail {
  device: string;
  os: string;
  browser: string;
  referrerHost: string;
  country: string;
}

/** One record of the log: how many clicks of which link, and where it sits in its partition. */
export interface ClickRecord {
  code: string;
  offset: number;
  clicks: number;
  /** Each click's time (ms since the epoch) and, in step, what it came from (absent: unknown). */
  clickedAtMs?: number[];
  details?: ClickDetail[];
  /** Redirects that are no clicks (bots, previews, HEAD, repeats): counted apart, never as clicks. */
  excludedAtMs?: number[];
  /** The same as counts per second (gateways since `excluded_seconds`); a record may carry both. */
  excludedSeconds?: Array<{ secondMs: number; count: number }>;
}

/**
 * Counts a partition's click records exactly once, whatever Kafka redelivers after a restart,
 * a crash or a rebalance. Offsets only grow within a partition and a partition is read in
 * order, so each link remembers per partition the last offset it counted, in the same document
 * as its count: a redelivered record is at or below that checkpoint and adds nothing. The write
 * is a compare-and-set on that one document (no transaction needed); where the store makes it
 * atomic (MongoDB), even two consumers briefly holding one partition cannot both count a record.
 */
export async function countClicks(tallies: ClickTallyRepository, partition: number, records: ClickRecord[]): Promise<{ counted: number }> {
  const byCode = new Map<string, ClickRecord[]>();
  for (const r of records) {
    const list = byCode.get(r.code);
    if (list) list.push(r);
    else byCode.set(r.code, [r]);
  }
  let counted = 0;
  for (const [code, list] of byCode) {
    for (;;) {
      const checkpoint = (await tallies.get(code))?.checkpoints[partition] ?? null;
      const fresh = list.filter((r) => checkpoint === null || r.offset > checkpoint);
      if (fresh.length === 0) break;
      const add = fresh.reduce((sum, r) => sum + r.clicks, 0);
      const change = { from: checkpoint, to: fresh.reduce((max, r) => Math.max(max, r.offset), -1), add };
      if (await tallies.advance(code, partition, change)) {
        counted += add;
        break;
      }
      // Lost the race to another consumer: read again and count what it did not.
    }
  }
  return { counted };
}
