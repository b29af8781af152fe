import { insertOnce } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import { summarize } from '../../domain/hour-summaries.js';
import {
  CLICK_LISTS,
  hourKey,
  type ClickList,
  type HourCounts,
  type HourState,
  type LinkHour,
  type LinkHourRepository,
  type LinkHoursSummary,
  type NameCounts,
} from '../../domain/link-hours.ports.js';

/**
 * `link_hours`: one document per link and UTC hour, `{_id: "<code>|<hour ISO>", account_id, code,
 * start, clicks, bots_excluded, devices: {name: n}, operating_systems, browsers, referrers,
 * countries, checkpoints: {p0: offset, ...}}`. A link's hours are read in time order by the
 * `code_start` index (indexes.ts).
 */
interface HourDoc {
  _id: string;
  account_id: string;
  code: string;
  start: Date;
  clicks: number;
  bots_excluded: number;
  devices: NameCounts;
  operating_systems: NameCounts;
  browsers: NameCounts;
  referrers: NameCounts;
  countries: NameCounts;
  checkpoints: Record<string, number>;
}

const FIELD: Record<ClickList, 'devices' | 'operating_systems' | 'browsers' | 'referrers' | 'countries'> = {
  devices: 'devices',
  operatingSystems: 'operating_systems',
  browsers: 'browsers',
  referrers: 'referrers',
  countries: 'countries',
};

// A field name holds no "." (a path separator: referrer hosts have them) and starts with no "$".
const encode = (name: string) => name.replace(/%/g, '%25').replace(/\./g, '%2E').replace(/^\$/, '%24');
const decode = (key: string) => key.replace(/%2E/g, '.').replace(/%24/g, '$').replace(/%25/g, '%');

const key = (partition: number) => `p${partition}`;

export class MongoLinkHourRepository implements LinkHourRepository {
  private readonly hours: Collection<HourDoc>;

  constructor(db: Db) {
    this.hours = db.collection<HourDoc>('link_hours');
  }

  async states(keys: Array<{ code: string; start: Date }>): Promise<Map<string, HourState>> {
    if (keys.length === 0) return new Map();
    const projection = { checkpoints: 1, ...Object.fromEntries(CLICK_LISTS.map((l) => [FIELD[l], 1])) };
    const docs = await this.hours.find({ _id: { $in: keys.map((k) => hourKey(k.code, k.start)) } }, { projection }).toArray();
    const states = new Map<string, HourState>();
    for (const d of docs) {
      const checkpoints: Record<number, number> = {};
      for (const [k, v] of Object.entries(d.checkpoints ?? {})) checkpoints[Number(k.slice(1))] = v;
      const names = Object.fromEntries(CLICK_LISTS.map((l) => [l, new Set(Object.keys(d[FIELD[l]] ?? {}).map(decode))]));
      states.set(d._id, { checkpoints, names: names as HourState['names'] });
    }
    return states;
  }

  async advance(
    hour: { code: string; start: Date; accountId: string },
    partition: number,
    change: { from: number | null; to: number; add: HourCounts },
  ): Promise<boolean> {
    const _id = hourKey(hour.code, hour.start);
    const path = `checkpoints.${key(partition)}`;
    const expected = change.from === null ? { $exists: false } : change.from;
    const inc: Record<string, number> = { clicks: change.add.clicks, bots_excluded: change.add.botsExcluded };
    for (const l of CLICK_LISTS) for (const [name, n] of Object.entries(change.add[l])) inc[`${FIELD[l]}.${encode(name)}`] = n;
    const res = await this.hours.updateOne({ _id, [path]: expected }, { $inc: inc, $set: { [path]: change.to } });
    if (res.matchedCount === 1) return true;
    if (change.from !== null) return false;
    // No document yet: the hour's first record. A concurrent first insert loses here and retries.
    const maps = Object.fromEntries(
      CLICK_LISTS.map((l) => [FIELD[l], Object.fromEntries(Object.entries(change.add[l]).map(([name, n]) => [encode(name), n]))]),
    ) as Pick<HourDoc, (typeof FIELD)[ClickList]>;
    return insertOnce(this.hours, {
      _id,
      account_id: hour.accountId,
      code: hour.code,
      start: hour.start,
      clicks: change.add.clicks,
      bots_excluded: change.add.botsExcluded,
      ...maps,
      checkpoints: { [key(partition)]: change.to },
    });
  }

  async range(code: string, from: Date, to: Date): Promise<LinkHour[]> {
    const docs = await this.hours
      .find({ code, start: { $gte: from, $lt: to } }, { projection: { checkpoints: 0, account_id: 0 } })
      .sort({ code: 1, start: 1 })
      .batchSize(10_000)
      .toArray();
    return docs.map((d) => {
      const lists = Object.fromEntries(CLICK_LISTS.map((l) => [l, decodeNames(d[FIELD[l]])])) as Record<ClickList, NameCounts>;
      return { code: d.code, start: d.start, clicks: d.clicks, botsExcluded: d.bots_excluded, ...lists };
    });
  }

  async summary(code: string, from: Date, to: Date): Promise<LinkHoursSummary> {
    return summarize(await this.range(code, from, to));
  }
}

function decodeNames(stored: NameCounts | undefined): NameCounts {
  const out: NameCounts = {};
  for (const k in stored) out[decode(k)] = stored[k]!;
  return out;
}
