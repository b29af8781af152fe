import { periodStart } from '@feedback/kit-core';
import { CLICK_LISTS, type ClickList, type HourTotals, type NameCounts } from './link-hours.ports.js';

export type AnalyticsInterval = 'hour' | 'day';

export interface BucketStart {
  at: number;
  label: string;
}

export interface NameClicks {
  name: string;
  clicks: number;
}

const HOUR_MS = 3_600_000;
// From a bucket's start, a step that always lands inside the next bucket: a local hour is at most
// an hour long, a local day 23 to 25 hours (kit-core periodStart says where it starts).
const STEP_MS: Record<AnalyticsInterval, number> = { hour: HOUR_MS, day: 26 * HOUR_MS };

// The bucket after a bucket's start, by zone and interval: a zone's calendar does not change while
// the process runs, and each zone lookup costs a few Intl calls (tens of µs).
const nextStarts = new Map<string, string>();
const NEXT_STARTS_MAX = 100_000;

function nextStart(at: number, interval: AnalyticsInterval, zone: string): string {
  const key = `${zone}|${interval}|${at}`;
  let label = nextStarts.get(key);
  if (label === undefined) {
    label = periodStart(new Date(at + STEP_MS[interval]), interval, zone);
    if (nextStarts.size >= NEXT_STARTS_MAX) nextStarts.clear();
    nextStarts.set(key, label);
  }
  return label;
}

/**
 * The starts of the hours or days of `zone` from the one holding `from` to the one holding the
 * last instant before `to`, oldest first (daylight saving time included); null when there are
 * more than `max`.
 */
export function bucketStarts(from: Date, to: Date, interval: AnalyticsInterval, zone: string, max: number): BucketStart[] | null {
  const out: BucketStart[] = [];
  let label = periodStart(from, interval, zone);
  let at = Date.parse(label);
  while (at < to.getTime()) {
    if (out.length >= max) return null;
    out.push({ at, label });
    label = nextStart(at, interval, zone);
    at = Date.parse(label);
  }
  return out;
}

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
