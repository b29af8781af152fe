import { describe, expect, it } from 'vitest';
import { CachedTallyReader } from '../src/reports/adapters/cached-tally.reader.js';
import { MemoryTallies } from './fakes/memory-tallies.js';

const HOUR = 3_600_000;

/** Counters of a campaign over three days before "now" (2026-11-23T10:00Z), and a reader of them that counts its reads. */
function setup() {
  const inner = new MemoryTallies();
  const reads: [string, string][] = [];
  const counting = {
    sharingTotals: inner.sharingTotals.bind(inner),
    campaignBuckets: (a: string, c: string, from: Date, to: Date) => {
      reads.push([from.toISOString(), to.toISOString()]);
      return inner.campaignBuckets(a, c, from, to);
    },
  };
  let now = Date.parse('2026-11-23T10:00:00Z');
  const cached = new CachedTallyReader(counting, { settledAfterMs: HOUR, refreshAfterMs: 60_000, maxRows: 1_000, now: () => now });
  inner.bucket('acc', 'camp', '2026-11-21T12:00:00Z', { sent: 1 });
  inner.bucket('acc', 'camp', '2026-11-22T12:00:00Z', { sent: 2 });
  inner.bucket('acc', 'camp', '2026-11-23T09:00:00Z', { sent: 4 });
  const sent = async (from: string, to = '2026-11-23T10:00:00Z') =>
    (await cached.campaignBuckets('acc', 'camp', new Date(from), new Date(to))).map((r) => r.sent);
  return { inner, reads, sent, tick: (ms: number) => (now += ms) };
}

describe('the report counters of settled days, kept', () => {
  it('reads the settled days once, in one range, and the day still moving every time', async () => {
    const { reads, sent } = setup();
    expect(await sent('2026-11-21T00:00:00Z')).toEqual([1, 2, 4]);
    expect(reads).toEqual([
      ['2026-11-21T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
      ['2026-11-23T00:00:00.000Z', '2026-11-23T10:00:00.000Z'],
    ]);
    reads.length = 0;
    // Another range over the same days: only the live part is read; the bounds still cut the kept days.
    expect(await sent('2026-11-21T13:00:00Z')).toEqual([2, 4]);
    expect(await sent('2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z')).toEqual([1]);
    expect(reads).toEqual([['2026-11-23T00:00:00.000Z', '2026-11-23T10:00:00.000Z']]);
  });

  it('shows a late count of a settled day after the refresh it triggers', async () => {
    const { inner, reads, sent, tick } = setup();
    await sent('2026-11-21T00:00:00Z');
    inner.bucket('acc', 'camp', '2026-11-22T13:00:00Z', { sent: 8 }); // the relay caught up after an outage
    expect(await sent('2026-11-21T00:00:00Z')).toEqual([1, 2, 4]);
    tick(61_000);
    reads.length = 0;
    expect(await sent('2026-11-21T00:00:00Z', '2026-11-23T10:01:01Z')).toEqual([1, 2, 4]); // the stale copy answers
    await new Promise((r) => setImmediate(r));
    expect(await sent('2026-11-21T00:00:00Z', '2026-11-23T10:01:01Z')).toEqual([1, 2, 8, 4]);
    expect(reads.filter(([from]) => from === '2026-11-21T00:00:00.000Z')).toHaveLength(1);
  });

  it('reads a range within the last day straight from the database; yesterday is live during the first hour', async () => {
    const { reads, sent, tick } = setup();
    expect(await sent('2026-11-23T08:00:00Z')).toEqual([4]);
    expect(reads).toEqual([['2026-11-23T08:00:00.000Z', '2026-11-23T10:00:00.000Z']]);
    tick(14 * HOUR + 30 * 60_000); // 2026-11-24T00:30Z
    reads.length = 0;
    expect(await sent('2026-11-22T00:00:00Z', '2026-11-24T00:30:00Z')).toEqual([2, 4]);
    expect(reads).toEqual([
      ['2026-11-22T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
      ['2026-11-23T00:00:00.000Z', '2026-11-24T00:30:00.000Z'],
    ]);
  });

  it("keeps each account's campaign apart", async () => {
    const { inner, sent } = setup();
    inner.bucket('intruder', 'camp', '2026-11-21T12:00:00Z', { sent: 100 });
    expect(await sent('2026-11-21T00:00:00Z')).toEqual([1, 2, 4]);
  });
});
