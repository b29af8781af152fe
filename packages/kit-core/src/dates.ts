/** `2026-11-22T09:30:00.123+00:00`: the API's created_at / expired_at form (docs/api.md "Dates") (ISO 8601, offset, ms). */
export function isoWithOffset(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

/** Whether the runtime knows `zone` as an IANA time zone (Europe/Istanbul, UTC, ...). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `zone` at `instant` as if it were UTC (ms): its offset is that minus the instant. */
function wallClock(instant: number, zone: string): number {
  let f = wallClocks.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

const DAY_MS = 86_400_000;
const dayOf = (wall: number) => Math.floor(wall / DAY_MS);

function offsetLabel(offsetMs: number): string {
  const minutes = Math.round(offsetMs / 60_000);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const HOUR_MS = 3_600_000;

/**
 * The start of the hour, day or week (weeks start on Monday, ISO 8601) holding `at` in `zone`, as
 * ISO 8601 with that instant's offset (`2026-03-30T00:00:00.000+03:00`). Daylight saving time is
 * the zone's: a day is 23 or 25 hours around a change, a day whose midnight is skipped starts at
 * its first instant (01:00), and an hour starts on the zone's whole hour (:30 UTC in
 * Asia/Kolkata). Intl only, so every service reads periods alike without a library.
 */
export function periodStart(at: Date, unit: 'hour' | 'day' | 'week', zone: string): string {
  const wall = wallClock(at.getTime(), zone);
  if (unit === 'hour') {
    // Offsets change on a local hour's boundary, so the hour's start has the offset of `at`
    // (Intl's wall clock has whole seconds: the offset is taken against `at` without its ms).
    const offset = wall - (at.getTime() - (((at.getTime() % 1000) + 1000) % 1000));
    return new Date(Math.floor(wall / HOUR_MS) * HOUR_MS).toISOString().replace('Z', offsetLabel(offset));
  }
  let day = dayOf(wall);
  if (unit === 'week') day -= (new Date(day * DAY_MS).getUTCDay() + 6) % 7;
  const midnight = day * DAY_MS;
  // Local midnight under the offsets of the hours around it; the first of them on that day wins.
  const starts = [-14, 0, 14]
    .map((h) => midnight - (wallClock(midnight + h * 3_600_000, zone) - (midnight + h * 3_600_000)))
    .filter((t) => dayOf(wallClock(t, zone)) === day)
    .sort((a, b) => a - b);
  const start = starts[0] ?? midnight;
  return new Date(start + (wallClock(start, zone) - start)).toISOString().replace('Z', offsetLabel(wallClock(start, zone) - start));
}

/** A bucket of a time series: its start as an instant (ms) and as periodStart writes it. */
export interface BucketStart {
  at: number;
  label: string;
}

// From a bucket's start, a step that always lands inside the next bucket: a local hour is at most
// an hour long, a local day 23 to 25 hours (periodStart says where it starts).
const STEP_MS: Record<'hour' | 'day', number> = { hour: HOUR_MS, day: 26 * HOUR_MS };

// The bucket after a bucket's start, by zone and interval: a zone's calendar does not change while
// the process runs, and each zone lookup costs a few Intl calls (tens of µs: 90 days took ~5 ms).
const nextStarts = new Map<string, string>();
const NEXT_STARTS_MAX = 100_000;

function nextStart(at: number, interval: 'hour' | 'day', zone: string): string {
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
 * more than `max` (asked no further: a range of years costs `max` steps). One zone lookup per
 * bucket, and none for a bucket seen before.
 */
export function bucketStarts(from: Date, to: Date, interval: 'hour' | 'day', zone: string, max: number): BucketStart[] | null {
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
