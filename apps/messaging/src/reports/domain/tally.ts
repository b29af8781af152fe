/**
 * The campaign report's counters, kept as the facts happen: each fact is recorded once on its
 * message record (or sharing) with an owed entry beside it, and the relay (tally-relay.use-cases.ts)
 * turns owed entries into increments of the counter documents, exactly once.
 */

/** What a message record or a sharing records once. */
export type Fact = 'recipients' | 'sent' | 'delivered' | 'failed' | 'opted_out' | 'clicked' | 'answered';

/** The entry a fact leaves in its record's `tally_owed` until the relay has counted it. */
export interface OwedEntry {
  f: Fact;
  at: Date;
  /** `sent`: the message's segments. */
  seg?: number;
  /** `answered`: the NPS score given (0-10), when the survey asked one. */
  nps?: number;
  /** `recipients`: the recipients a sharing accepted. */
  n?: number;
}

export const COUNTERS = [
  'recipients',
  'sent',
  'delivered',
  'failed',
  'opted_out',
  'clicked',
  'answered',
  'segments',
  'promoters',
  'passives',
  'detractors',
] as const;
export type Counter = (typeof COUNTERS)[number];
export type Counts = Partial<Record<Counter, number>>;

/** A record that owes entries: a message record (its reminder number, 0 for the first message) or a sharing. */
export interface OwedRecord {
  kind: 'message' | 'sharing';
  id: string;
  accountId: string;
  campaignId: string;
  sharingId: string;
  reminder: number;
  owed: OwedEntry[];
}

/** What to add to one counter document: a campaign's 15-minute bucket, or a sharing's totals. */
export interface Increment {
  kind: 'campaign' | 'sharing';
  /** `<campaign id>|<bucket start ISO>` or the sharing id. */
  key: string;
  accountId: string;
  campaignId: string;
  /** The bucket's start (campaign counters only). */
  start?: Date;
  inc: Counts;
}

const BUCKET_MS = 15 * 60_000;

/**
 * The 15-minute UTC bucket of an instant. Every real time zone's offset is a multiple of 15
 * minutes, so a day or an hour in any zone is a sum of whole buckets.
 */
export const bucketStart = (at: Date): Date => new Date(Math.floor(at.getTime() / BUCKET_MS) * BUCKET_MS);

export const campaignKey = (campaignId: string, start: Date) => `${campaignId}|${start.toISOString()}`;

/** NPS classes: 9-10 promoter, 7-8 passive, 0-6 detractor. */
export function npsClass(score: number): 'promoters' | 'passives' | 'detractors' {
  if (score >= 9) return 'promoters';
  if (score >= 7) return 'passives';
  return 'detractors';
}

/**
 * What one owed entry counts. The funnel is per recipient, that is per first message: a reminder
 * counts only the segments it cost.
 */
export function countsOf(e: OwedEntry, reminder: number): Counts {
  if (reminder > 0) return e.f === 'sent' ? { segments: e.seg ?? 0 } : {};
  switch (e.f) {
    case 'recipients':
      return { recipients: e.n ?? 0 };
    case 'sent':
      return { sent: 1, segments: e.seg ?? 0 };
    case 'answered':
      return { answered: 1, ...(typeof e.nps === 'number' && { [npsClass(e.nps)]: 1 }) };
    default:
      return { [e.f]: 1 };
  }
}

/** The increments of the owed entries of `records`, per campaign bucket (at each entry's time) and per sharing. */
export function increments(records: OwedRecord[]): Increment[] {
  const byKey = new Map<string, Increment>();
  const add = (kind: Increment['kind'], key: string, r: OwedRecord, counts: Counts, start?: Date) => {
    const id = `${kind}:${key}`;
    let target = byKey.get(id);
    if (!target) {
      target = { kind, key, accountId: r.accountId, campaignId: r.campaignId, ...(start && { start }), inc: {} };
      byKey.set(id, target);
    }
    for (const [name, n] of Object.entries(counts) as [Counter, number][]) if (n) target.inc[name] = (target.inc[name] ?? 0) + n;
  };
  for (const r of records)
    for (const e of r.owed) {
      const counts = countsOf(e, r.reminder);
      if (Object.values(counts).every((n) => !n)) continue;
      const start = bucketStart(e.at);
      add('campaign', campaignKey(r.campaignId, start), r, counts, start);
      add('sharing', r.sharingId, r, counts);
    }
  return [...byKey.values()];
}

/** Adds `b` into `a` (the recount's sums). */
export function addCounts(a: Counts, b: Counts): Counts {
  for (const [name, n] of Object.entries(b) as [Counter, number][]) if (n) a[name] = (a[name] ?? 0) + n;
  return a;
}
