import { bucketStarts, type BucketStart } from '@feedback/kit-core';
import { CLICK_LISTS, type ClickList, type HourTotals, type NameCounts } from './link-hours.ports.js';

export type AnalyticsInterval = 'hour' | 'day';

export interface NameClicks {
  name: string;
  clicks: number;
}

// The buckets themselves are kit-core's (shared with messaging's campaign report).
export { bucketStarts };

/**
 * Each bucket the clicks of the hour counters starting inside it, empty buckets included. An
 * hour counter is a whole UTC hour: in a zone whose hours start at :30 or :45 (Asia/Kolkata) it
 * counts in the bucket its start falls in.
 */
export function seriesOf(starts: BucketStart[], hours: HourTotals[]): Array<{ start: string; clicks: number }> {
  let i = 0;
  return starts.map((b, k) => {
    const end = starts[k + 1]?.at ?? Number.POSITIVE_INFINITY;
    let clicks = 0;
    // Hours before the first bucket (the one holding `from` starts before it) count in the first.
    for (; i < hours.length && hours[i]!.start.getTime() < end; i++) clicks += hours[i]!.clicks;
    return { start: b.label, clicks };
  });
}

/** Each list most clicks first (then by name). */
export function sortedLists(lists: Record<ClickList, NameCounts>): Record<ClickList, NameClicks[]> {
  const sorted = (m: NameCounts) =>
    Object.entries(m)
      .map(([name, clicks]) => ({ name, clicks }))
      .sort((a, b) => b.clicks - a.clicks || (a.name < b.name ? -1 : 1));
  return Object.fromEntries(CLICK_LISTS.map((l) => [l, sorted(lists[l])])) as Record<ClickList, NameClicks[]>;
}
