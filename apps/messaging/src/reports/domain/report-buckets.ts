import { bucketStarts, type BucketStart } from '@feedback/kit-core';
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

// The buckets themselves are kit-core's (shared with the shortener's link stats).
export { bucketStarts };

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
