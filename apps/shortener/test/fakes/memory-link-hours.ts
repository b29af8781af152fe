import { summarize } from '../../src/domain/hour-summaries.js';
import {
  CLICK_LISTS,
  hourKey,
  type HourCounts,
  type HourState,
  type LinkHour,
  type LinkHourRepository,
} from '../../src/domain/link-hours.ports.js';

/** In-memory link hour counters with the Mongo adapter's compare-and-set. */
export class MemoryLinkHours implements LinkHourRepository {
  readonly items = new Map<string, LinkHour & { accountId: string; checkpoints: Record<number, number> }>();

  async states(keys: Array<{ code: string; start: Date }>) {
    const out = new Map<string, HourState>();
    for (const k of keys) {
      const h = this.items.get(hourKey(k.code, k.start));
      if (!h) continue;
      const names = Object.fromEntries(CLICK_LISTS.map((l) => [l, new Set(Object.keys(h[l]))])) as HourState['names'];
      out.set(hourKey(k.code, k.start), { checkpoints: { ...h.checkpoints }, names });
    }
    return out;
  }

  async advance(
    hour: { code: string; start: Date; accountId: string },
    partition: number,
    change: { from: number | null; to: number; add: HourCounts },
  ) {
    const key = hourKey(hour.code, hour.start);
    let h = this.items.get(key);
    if ((h?.checkpoints[partition] ?? null) !== change.from) return false;
    if (!h) {
      h = {
        code: hour.code,
        start: hour.start,
        accountId: hour.accountId,
        checkpoints: {},
        clicks: 0,
        botsExcluded: 0,
        devices: {},
        operatingSystems: {},
        browsers: {},
        referrers: {},
        countries: {},
      };
      this.items.set(key, h);
    }
    h.clicks += change.add.clicks;
    h.botsExcluded += change.add.botsExcluded;
    for (const l of CLICK_LISTS) for (const [name, n] of Object.entries(change.add[l])) h[l][name] = (h[l][name] ?? 0) + n;
    h.checkpoints[partition] = change.to;
    return true;
  }

  async range(code: string, from: Date, to: Date) {
    return [...this.items.values()]
      .filter((h) => h.code === code && h.start >= from && h.start < to)
      .sort((a, b) => +a.start - +b.start)
      .map(({ accountId: _a, checkpoints: _c, ...h }) => h);
  }

  async summary(code: string, from: Date, to: Date) {
    return summarize(await this.range(code, from, to));
  }
}

/** Every link the given account's. */
export const fixedAccount = (accountId: string) => ({
  accountsOf: async (codes: string[]) => new Map(codes.map((c) => [c, accountId])),
});
