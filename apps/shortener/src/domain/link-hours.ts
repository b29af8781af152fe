import type { ClickDetail, ClickRecord } from './click-counting.js';
import {
  CLICK_LISTS,
  emptyCounts,
  hourKey,
  type ClickList,
  type HourCounts,
  type HourState,
  type LinkAccounts,
  type LinkHourRepository,
  type NameCounts,
} from './link-hours.ports.js';

/** Names kept per list and hour; the clicks of any further name count as "other" (a document stays a few KiB). */
export const MAX_NAMES_PER_LIST = 100;
export const OTHER = 'other';
/** Hours written at once: a batch of many links' clicks is many documents. */
const PARALLEL_WRITES = 32;
const HOUR_MS = 3_600_000;

/** A click's name in each list; unknown when the gateway could not tell (or predates click details). */
const NAME_OF: Record<ClickList, (d: ClickDetail | undefined) => string> = {
  devices: (d) => d?.device || 'unknown',
  operatingSystems: (d) => d?.os || 'unknown',
  browsers: (d) => d?.browser || 'unknown',
  // No Referer: a tap in an SMS or mail app, a typed or bookmarked link.
  referrers: (d) => (d ? d.referrerHost || '(direct)' : 'unknown'),
  countries: (d) => d?.country || 'unknown',
};

interface HourParts {
  code: string;
  start: Date;
  /** What each record adds to this hour, with the record's offset. */
  parts: Array<{ offset: number; counts: HourCounts }>;
}

function add(names: NameCounts, name: string, n: number) {
  names[name] = (names[name] ?? 0) + n;
}

/** Each record's clicks and excluded redirects split by link and UTC hour. */
function byHour(records: ClickRecord[]): Map<string, HourParts> {
  const hours = new Map<string, HourParts>();
  for (const r of records) {
    const mine = new Map<number, HourCounts>();
    const at = (ms: number) => {
      const start = Math.floor(ms / HOUR_MS) * HOUR_MS;
      let c = mine.get(start);
      if (!c) mine.set(start, (c = emptyCounts()));
      return c;
    };
    (r.clickedAtMs ?? []).forEach((ms, i) => {
      const c = at(ms);
      c.clicks++;
      for (const list of CLICK_LISTS) add(c[list], NAME_OF[list](r.details?.[i]), 1);
    });
    for (const ms of r.excludedAtMs ?? []) at(ms).botsExcluded++;
    for (const s of r.excludedSeconds ?? []) at(s.secondMs).botsExcluded += s.count;
    for (const [start, counts] of mine) {
      const key = hourKey(r.code, new Date(start));
      let h = hours.get(key);
      if (!h) hours.set(key, (h = { code: r.code, start: new Date(start), parts: [] }));
      h.parts.push({ offset: r.offset, counts });
    }
  }
  return hours;
}

function merge(parts: HourCounts[]): HourCounts {
  const sum = emptyCounts();
  for (const p of parts) {
    sum.clicks += p.clicks;
    sum.botsExcluded += p.botsExcluded;
    for (const list of CLICK_LISTS) for (const [name, n] of Object.entries(p[list])) add(sum[list], name, n);
  }
  return sum;
}

/**
 * At most MAX_NAMES_PER_LIST names per list and hour: names the hour has keep counting, new ones
 * take the free places, most clicked first, and the rest count as "other".
 */
export function capNames(counts: HourCounts, names: HourState['names'] | undefined): HourCounts {
  const out: HourCounts = { ...counts };
  for (const list of CLICK_LISTS) {
    const have = new Set(names?.[list]);
    have.delete(OTHER);
    const kept: NameCounts = {};
    for (const [name, n] of Object.entries(counts[list]).sort((a, b) => b[1] - a[1])) {
      const keep = name !== OTHER && (have.has(name) || have.size < MAX_NAMES_PER_LIST);
      if (keep) have.add(name);
      add(kept, keep ? name : OTHER, n);
    }
    out[list] = kept;
  }
  return out;
}

/**
 * Adds a partition's click records to their links' hour counters exactly once, as the click
 * tallies count them (click-counting.ts): each hour document keeps per partition the last offset
 * it counted, and takes a record's part only in a compare-and-set that moves that checkpoint,
 * so whatever Kafka delivers again adds nothing. One read for the batch's hours (and one for the
 * accounts of links not seen before), then one write per hour touched; a lost race reads that hour
 * again.
 */
export async function countClickHours(
  deps: { hours: LinkHourRepository; accounts: LinkAccounts },
  partition: number,
  records: ClickRecord[],
): Promise<{ clicks: number; botsExcluded: number }> {
  const hours = [...byHour(records).entries()];
  const total = { clicks: 0, botsExcluded: 0 };
  if (hours.length === 0) return total;
  const [states, accounts] = await Promise.all([
    deps.hours.states(hours.map(([, h]) => ({ code: h.code, start: h.start }))),
    deps.accounts.accountsOf(hours.map(([, h]) => h.code)),
  ]);
  const countHour = async ([key, h]: [string, HourParts]) => {
    let state = states.get(key);
    for (;;) {
      const from = state?.checkpoints[partition] ?? null;
      const fresh = h.parts.filter((p) => from === null || p.offset > from);
      if (fresh.length === 0) return;
      const change = { from, to: Math.max(...fresh.map((p) => p.offset)), add: capNames(merge(fresh.map((p) => p.counts)), state?.names) };
      const accountId = accounts.get(h.code) ?? '';
      if (await deps.hours.advance({ code: h.code, start: h.start, accountId }, partition, change)) {
        total.clicks += change.add.clicks;
        total.botsExcluded += change.add.botsExcluded;
        return;
      }
      // Lost the race to another consumer: read again and count what it did not.
      state = (await deps.hours.states([{ code: h.code, start: h.start }])).get(key);
    }
  };
  for (let i = 0; i < hours.length; i += PARALLEL_WRITES) await Promise.all(hours.slice(i, i + PARALLEL_WRITES).map(countHour));
  return total;
}
