import { periodStart } from '@feedback/kit-core';
import type { CampaignTallyRow } from '../report-reads.ports.js';

export type ReportInterval = 'hour' | 'day';

/** One hour or day of the report's time zone: its start (ISO 8601 with the zone's offset) and what happened in it. */
export interface ReportBucket {
  start: string;
  sent: number;
  delivered: number;
  failed: number;
  clicked: number;
  answered: number;
}

interface BucketStart {
  at: number;
  label: string;
}

const HOUR_MS = 3_600_000;
// From a bucket's start, a step that always lands inside the next bucket: a local hour is at most
// an hour long, a local day 23 to 25 hours (kit-core periodStart says where it starts).
const STEP_MS: Record<ReportInterval, number> = { hour: HOUR_MS, day: 26 * HOUR_MS };

// The bucket after a bucket's start, by zone and interval: a zone's calendar does not change while
// the process runs, and each zone lookup costs a few Intl calls (tens of µs: 90 days took ~5 ms).
const nextStarts = new Map<string, string>();
const NEXT_STARTS_MAX = 100_000;

function nextStart(at: number, interval: ReportInterval, zone: string): string {
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
 * last instant before `to`, oldest first; null when there are more than `max` (asked no further:
 * a range of years costs `max` steps). One zone lookup per bucket, not per counter document, and
 * none for a bucket seen before.
 */
export function bucketStarts(from: Date, to: Date, interval: ReportInterval, zone: string, max: number): BucketStart[] | null {
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
 * Each bucket the sum of the 15-minute counter documents starting inside it, empty buckets
 * included. `rows` are oldest first and start in [from, to), so the first and last buckets count
 * only their part inside the range.
 */
export function seriesOf(starts: BucketStart[], rows: CampaignTallyRow[]): ReportBucket[] {
  let i = 0;
  return starts.map((b, k) => {
    const end = starts[k + 1]?.at ?? Number.POSITIVE_INFINITY;
    const bucket: ReportBucket = { start: b.label, sent: 0, delivered: 0, failed: 0, clicked: 0, answered: 0 };
    for (; i < rows.length && rows[i]!.start.getTime() < end; i++) {
      const r = rows[i]!;
      bucket.sent += r.sent;
      bucket.delivered += r.delivered;
      bucket.failed += r.failed;
      bucket.clicked += r.clicked;
      bucket.answered += r.answered;
    }
    return bucket;
  });
}
