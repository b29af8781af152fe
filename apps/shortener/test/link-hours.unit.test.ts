import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import type { ClickDetail, ClickRecord } from '../src/domain/click-counting.js';
import { getLinkAnalytics } from '../src/domain/link-analytics.use-cases.js';
import { countClickHours, MAX_NAMES_PER_LIST } from '../src/domain/link-hours.js';
import type { Link } from '../src/domain/link.js';
import { MemoryLinks } from './fakes/memory-deps.js';
import { fixedAccount, MemoryLinkHours } from './fakes/memory-link-hours.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 10, 0); // 2026-11-20T10:00Z
const phone: ClickDetail = { device: 'mobile', os: 'iOS', browser: 'Mobile Safari', referrerHost: 'www.instagram.com', country: 'TR' };
const desk: ClickDetail = { device: 'desktop', os: 'Windows', browser: 'Firefox', referrerHost: '', country: '' };

const rec = (offset: number, clicks: Array<[number, ClickDetail]>, excluded: number[] = [], code = 'Code123'): ClickRecord => ({
  code,
  offset,
  clicks: clicks.length,
  clickedAtMs: clicks.map(([at]) => at),
  details: clicks.map(([, d]) => d),
  excludedAtMs: excluded,
});

function setup() {
  const hours = new MemoryLinkHours();
  const deps = { hours, accounts: fixedAccount('acc1') };
  return { hours, deps };
}

describe('countClickHours', () => {
  it('splits clicks by link and UTC hour, with their lists, and excluded redirects apart', async () => {
    const { hours, deps } = setup();
    await countClickHours(deps, 0, [
      rec(
        5,
        [
          [T0 + 60_000, phone],
          [T0 + H + 1, desk],
        ],
        [T0 + 2, T0 + 3],
      ),
    ]);
    const first = hours.items.get(`Code123|${new Date(T0).toISOString()}`)!;
    expect(first).toMatchObject({
      accountId: 'acc1',
      clicks: 1,
      botsExcluded: 2,
      devices: { mobile: 1 },
      referrers: { 'www.instagram.com': 1 },
      countries: { TR: 1 },
    });
    const second = hours.items.get(`Code123|${new Date(T0 + H).toISOString()}`)!;
    expect(second).toMatchObject({
      clicks: 1,
      botsExcluded: 0,
      browsers: { Firefox: 1 },
      referrers: { '(direct)': 1 },
      countries: { unknown: 1 },
    });
  });

  it('adds excluded redirects counted per second to their hours, with those sent one time each', async () => {
    const { hours, deps } = setup();
    const perSecond: ClickRecord = {
      ...rec(7, [], [T0 + 10]),
      excludedSeconds: [
        { secondMs: T0 + H - 1000, count: 30_000 },
        { secondMs: T0 + H, count: 5 },
      ],
    };
    expect(await countClickHours(deps, 0, [perSecond])).toEqual({ clicks: 0, botsExcluded: 30_006 });
    expect(hours.items.get(`Code123|${new Date(T0).toISOString()}`)).toMatchObject({ clicks: 0, botsExcluded: 30_001 });
    expect(hours.items.get(`Code123|${new Date(T0 + H).toISOString()}`)).toMatchObject({ clicks: 0, botsExcluded: 5 });
  });

  it('adds nothing for a redelivered batch, and only the new records of an overlapping one', async () => {
    const { hours, deps } = setup();
    const batch = [rec(1, [[T0, phone]]), rec(2, [[T0 + 5, desk]], [T0 + 6])];
    expect(await countClickHours(deps, 0, batch)).toEqual({ clicks: 2, botsExcluded: 1 });
    expect(await countClickHours(deps, 0, batch)).toEqual({ clicks: 0, botsExcluded: 0 });
    expect(await countClickHours(deps, 0, [...batch, rec(3, [[T0 + 7, phone]])])).toEqual({ clicks: 1, botsExcluded: 0 });
    expect(hours.items.get(`Code123|${new Date(T0).toISOString()}`)).toMatchObject({
      clicks: 3,
      botsExcluded: 1,
      devices: { mobile: 2, desktop: 1 },
    });
  });

  it('keeps at most 100 names a list and hour, the rest as other', async () => {
    const { hours, deps } = setup();
    const many = Array.from({ length: MAX_NAMES_PER_LIST + 5 }, (_, i): [number, ClickDetail] => [
      T0,
      { ...phone, referrerHost: `site${i}.example` },
    ]);
    await countClickHours(deps, 0, [rec(1, many)]);
    await countClickHours(deps, 0, [
      rec(2, [
        [T0, { ...phone, referrerHost: 'late.example' }],
        [T0, { ...phone, referrerHost: 'site0.example' }],
      ]),
    ]);
    const refs = hours.items.get(`Code123|${new Date(T0).toISOString()}`)!.referrers;
    expect(Object.keys(refs)).toHaveLength(MAX_NAMES_PER_LIST + 1);
    expect(refs.other).toBe(6);
    expect(refs['site0.example']).toBe(2);
  });
});

describe('getLinkAnalytics', () => {
  const link = (accountId: string | null): Link =>
    ({ code: 'Code123', fullUrl: 'https://example.com', accountId, createdAt: new Date(T0) }) as Link;

  async function withClicks() {
    const { hours, deps } = setup();
    // 2026-11-20 22:30Z is the 21st in Istanbul (UTC+3), 10:00Z the 20th.
    await countClickHours(deps, 0, [
      rec(
        1,
        [
          [T0, phone],
          [T0 + 1, phone],
          [Date.UTC(2026, 10, 20, 22, 30), desk],
        ],
        [T0 + 2],
      ),
    ]);
    const links = new MemoryLinks();
    await links.insertIfNew(link('acc1'));
    return { links, hours, clock: { now: () => new Date(Date.UTC(2026, 10, 25)) } };
  }

  it("sums the hours into the caller's days, with each list most clicks first", async () => {
    const deps = await withClicks();
    const stats = await getLinkAnalytics(deps, {
      accountId: 'acc1',
      code: 'Code123',
      from: '2026-11-20T00:00:00+03:00',
      to: '2026-11-22T00:00:00+03:00',
      interval: 'day',
      timeZone: 'Europe/Istanbul',
    });
    expect(stats.clicks).toBe(3);
    expect(stats.botsExcluded).toBe(1);
    expect(stats.series).toEqual([
      { start: '2026-11-20T00:00:00.000+03:00', clicks: 2 },
      { start: '2026-11-21T00:00:00.000+03:00', clicks: 1 },
    ]);
    expect(stats.devices).toEqual([
      { name: 'mobile', clicks: 2 },
      { name: 'desktop', clicks: 1 },
    ]);
    expect(stats.referrers[0]).toEqual({ name: 'www.instagram.com', clicks: 2 });
  });

  it("is NOT_FOUND for another account's link and one of no account, INVALID_ARGUMENT naming bad fields", async () => {
    const deps = await withClicks();
    const q = { accountId: 'acc2', code: 'Code123', from: '', to: '', interval: '', timeZone: '' };
    await expect(getLinkAnalytics(deps, q)).rejects.toMatchObject({ kind: 'not_found' });
    await deps.links.insertIfNew({ ...link(null), code: 'Anon123' });
    await expect(getLinkAnalytics(deps, { ...q, accountId: '', code: 'Anon123' })).rejects.toMatchObject({ kind: 'not_found' });
    const bad = await getLinkAnalytics(deps, { ...q, accountId: 'acc1', interval: 'week', timeZone: 'Mars/Base', from: 'yesterday' }).catch(
      (e: AppError) => e,
    );
    expect(bad).toBeInstanceOf(AppError);
    expect(Object.keys((bad as AppError).fields).sort()).toEqual(['from', 'interval', 'time_zone']);
  });
});
