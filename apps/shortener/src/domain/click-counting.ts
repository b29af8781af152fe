import type { ClickTallyRepository } from './ports.js';

/** One click as read from the log: which link, and where it sits in its partition. */
export interface ClickRecord {
  code: string;
  offset: number;
}

/**
 * Counts a partition's clicks exactly once, whatever Kafka redelivers after a restart or a
 * rebalance. Offsets only grow within a partition and a partition is read in order, so each
 * link remembers per partition the last offset it counted, in the same document as its
 * count: a redelivered click is at or below that checkpoint and adds nothing. The write is a
 * compare-and-set on one document, so two consumers briefly holding the same partition (a
 * rebalance) cannot both count a click, and no transaction is needed.
 */
export async function countClicks(
  tallies: ClickTallyRepository,
  partition: number,
  clicks: ClickRecord[],
): Promise<{ counted: number }> {
  const byCode = new Map<string, number[]>();
  for (const c of clicks) {
    const offsets = byCode.get(c.code);
    if (offsets) offsets.push(c.offset);
    else byCode.set(c.code, [c.offset]);
  }
  let counted = 0;
  for (const [code, offsets] of byCode) {
    for (;;) {
      const checkpoint = (await tallies.get(code))?.checkpoints[partition] ?? null;
      const fresh = offsets.filter((o) => checkpoint === null || o > checkpoint);
      if (fresh.length === 0) break;
      const change = { from: checkpoint, to: fresh.reduce((a, b) => Math.max(a, b)), add: fresh.length };
      if (await tallies.advance(code, partition, change)) {
        counted += fresh.length;
        break;
      }
      // Lost the race to another consumer: read again and count what it did not.
    }
  }
  return { counted };
}
