/** The lists a link's hour counts clicks by; each maps a name to its clicks. */
export const CLICK_LISTS = ['devices', 'operatingSystems', 'browsers', 'referrers', 'countries'] as const;
export type ClickList = (typeof CLICK_LISTS)[number];

export type NameCounts = Record<string, number>;

/** What happened to one link in one UTC hour (or what a batch adds to it). */
export interface HourCounts {
  clicks: number;
  botsExcluded: number;
  devices: NameCounts;
  operatingSystems: NameCounts;
  browsers: NameCounts;
  referrers: NameCounts;
  countries: NameCounts;
}

/** One link's hour as stored: its counts from `start` (a whole UTC hour) on. */
export interface LinkHour extends HourCounts {
  code: string;
  start: Date;
}

/** An hour's totals, for a series. */
export interface HourTotals {
  start: Date;
  clicks: number;
  botsExcluded: number;
}

/** A link's hours over a range: each hour's totals, oldest first, and the lists of them all summed. */
export interface LinkHoursSummary {
  hours: HourTotals[];
  lists: Record<ClickList, NameCounts>;
}

/** An hour's counter as the counting needs it: up to which offset of each partition it holds, and which names it has. */
export interface HourState {
  checkpoints: Record<number, number>;
  names: Record<ClickList, Set<string>>;
}

export interface LinkHourRepository {
  /** The state of each (code, hour) asked that has a counter document yet, keyed by `hourKey`. */
  states(keys: Array<{ code: string; start: Date }>): Promise<Map<string, HourState>>;
  /**
   * Compare-and-set, as the click tallies' `advance`: adds `add` to the hour's counts and moves
   * the partition's checkpoint from `from` (null: none yet, the document made then) to `to`,
   * only if the checkpoint still is `from`; answers whether it did.
   */
  advance(
    hour: { code: string; start: Date; accountId: string },
    partition: number,
    change: { from: number | null; to: number; add: HourCounts },
  ): Promise<boolean>;
  /** The link's hours starting in [from, to), oldest first. */
  range(code: string, from: Date, to: Date): Promise<LinkHour[]>;
  /** The same hours summed up (hour-summaries.ts summarize); a cache may keep settled days'. */
  summary(code: string, from: Date, to: Date): Promise<LinkHoursSummary>;
}

/** The account each link's code belongs to ('' for a link of none, or no link). */
export interface LinkAccounts {
  accountsOf(codes: string[]): Promise<Map<string, string>>;
}

export const hourKey = (code: string, start: Date) => `${code}|${start.toISOString()}`;

export const emptyCounts = (): HourCounts => ({
  clicks: 0,
  botsExcluded: 0,
  devices: {},
  operatingSystems: {},
  browsers: {},
  referrers: {},
  countries: {},
});
