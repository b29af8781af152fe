import { describe, expect, it } from 'vitest';
import { CachedLinkHours } from '../src/adapters/cached-link-hours.js';
import { countClickHours } from '../src/domain/link-hours.js';
import { fixedAccount, MemoryLinkHours } from './fakes/memory-link-hours.js';

const H = 3_600_000;
const DAY = 24 * H;
const NOW = Date.UTC(2026, 10, 28, 12, 0);
const phone = { device: 'mobile', os: 'iOS', browser: 'Mobile Safari', referrerHost: '', country: 'TR' };

/** Hour counters with one click per hour at the given times, and a count of the range reads that reach them. */
async function hoursWithClicks(times: number[]) {
  const inner = new MemoryLinkHours();
  let offset = 0;
  for (const at of times) {
    await countClickHours({ hours: inner, accounts: fixedAccount('acc') }, 0, [
      { code: 'Code123', offset: offset++, clicks: 1, clickedAtMs: [at], details: [phone] },
    ]);
  }
  const reads: Array<[number, number]> = [];
  const counted = Object.assign(Object.create(inner) as MemoryLinkHours, {
    range: (code: string, from: Date, to: Date) => (reads.push([+from, +to]), inner.range(code, from, to)),
    summary: (code: string, from: Date, to: Date) => (reads.push([+from, +to]), inner.summary(code, from, to)),
  });
  return { inner, reads, counted };
}

describe('CachedLinkHours', () => {
  it('answers as the store does, reading settled days once and the rest every time', async () => {
    const start = NOW - 10 * DAY - 5 * H; // mid-day: a part day, nine whole ones, today
    const { inner, reads, counted } = await hoursWithClicks([start + H, NOW - 5 * DAY, NOW - 5 * DAY + 2 * H, NOW - H]);
    let now = NOW;
    const cache = new CachedLinkHours(counted, { settledAfterMs: H, refreshAfterMs: 60_000, maxDays: 1_000, now: () => now });
    const [from, to] = [new Date(start), new Date(NOW)];
    const want = await inner.summary('Code123', from, to);
    expect(await cache.summary('Code123', from, to)).toEqual(want);
    expect(await cache.summary('Code123', from, to)).toEqual(want);
    expect(want.lists.devices).toEqual({ mobile: 4 });
    // The first: the part day, today, and the whole days in one range; the second: the two parts only.
    expect(reads).toHaveLength(5);
    expect(reads.slice(3)).toEqual(reads.slice(0, 2));

    // A late click of a settled day shows once its copy is read again (in the background, after a minute).
    await countClickHours({ hours: inner, accounts: fixedAccount('acc') }, 0, [
      { code: 'Code123', offset: 99, clicks: 1, clickedAtMs: [NOW - 5 * DAY + H], details: [phone] },
    ]);
    now += 61_000;
    await cache.summary('Code123', from, to);
    await new Promise((r) => setTimeout(r, 10));
    expect((await cache.summary('Code123', from, to)).lists.devices).toEqual({ mobile: 5 });
  });

  it('reads a range within the unsettled days straight from the store', async () => {
    const { reads, counted } = await hoursWithClicks([NOW - H]);
    const cache = new CachedLinkHours(counted, { settledAfterMs: H, refreshAfterMs: 60_000, maxDays: 1_000, now: () => NOW });
    expect((await cache.summary('Code123', new Date(NOW - 3 * H), new Date(NOW))).hours.map((h) => h.clicks)).toEqual([1]);
    expect(reads).toEqual([[NOW - 3 * H, NOW]]);
  });
});
