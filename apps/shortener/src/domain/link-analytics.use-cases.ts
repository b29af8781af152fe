import { errors, isTimeZone, type Clock } from '@feedback/kit-core';
import { bucketStarts, seriesOf, sortedLists, type AnalyticsInterval, type NameClicks } from './analytics-buckets.js';
import type { ClickList, LinkHourRepository } from './link-hours.ports.js';
import type { LinkRepository } from './ports.js';

/** GetLinkAnalytics as the caller asked it ('' = not given). */
export interface LinkAnalyticsQuery {
  accountId: string;
  code: string;
  from: string;
  to: string;
  interval: string;
  timeZone: string;
}

export type LinkAnalytics = Record<ClickList, NameClicks[]> & {
  from: Date;
  to: Date;
  interval: AnalyticsInterval;
  timeZone: string;
  clicks: number;
  botsExcluded: number;
  series: Array<{ start: string; clicks: number }>;
};

export interface LinkAnalyticsDeps {
  links: Pick<LinkRepository, 'findByCode'>;
  hours: Pick<LinkHourRepository, 'summary'>;
  clock: Clock;
}

/** Without `from`: this many days before `to`. */
export const ANALYTICS_DEFAULT_DAYS = 30;
/** The longest range, in days, per interval (as the campaign report's). */
export const ANALYTICS_MAX_DAYS: Record<AnalyticsInterval, number> = { day: 400, hour: 31 };
// Days are 23 to 25 hours: a range of n days has at most n + 2 buckets of a zone's days.
const MAX_BUCKETS: Record<AnalyticsInterval, number> = { day: ANALYTICS_MAX_DAYS.day + 3, hour: ANALYTICS_MAX_DAYS.hour * 24 + 3 };
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** A date (midnight UTC) or a date-time with its offset; a message for the field when it is neither. */
function parseInstant(text: string): Date | string {
  const m = INSTANT.exec(text);
  if (!m) return 'must be an ISO 8601 date (2026-11-22) or date-time with an offset (2026-11-22T09:30:00+03:00)';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return 'is not a calendar date';
  const at = new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1970 || at.getUTCFullYear() > 9999) return 'is out of range';
  return at;
}

interface Range {
  from: Date;
  to: Date;
  interval: AnalyticsInterval;
  timeZone: string;
}

/** from, to, interval and time_zone checked, every problem at once under its field, the defaults filled in. */
function checkRange(q: LinkAnalyticsQuery, now: Date): Range {
  const problems: Record<string, string> = {};
  const interval = q.interval || 'day';
  if (interval !== 'hour' && interval !== 'day') problems.interval = 'must be hour or day';
  const timeZone = q.timeZone || 'UTC';
  if (!isTimeZone(timeZone)) problems.time_zone = 'must be an IANA time zone, e.g. Europe/Istanbul';
  const at = (field: 'from' | 'to', text: string): Date | undefined => {
    if (!text) return undefined;
    const parsed = parseInstant(text);
    if (typeof parsed === 'string') problems[field] = parsed;
    return typeof parsed === 'string' ? undefined : parsed;
  };
  const to = at('to', q.to) ?? (q.to ? undefined : now);
  const from = at('from', q.from) ?? (q.from || !to ? undefined : new Date(to.getTime() - ANALYTICS_DEFAULT_DAYS * DAY_MS));
  if (from && to && from >= to) {
    if (q.to) problems.to = 'must be after from';
    else problems.from = 'must be before to (now when not given)';
  }
  const most = interval === 'hour' || interval === 'day' ? ANALYTICS_MAX_DAYS[interval] : undefined;
  if (from && to && most && to.getTime() - from.getTime() > most * DAY_MS && !problems.from) {
    problems.from = `must be at most ${most} days before to with interval=${interval}`;
  }
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  return { from: from!, to: to!, interval: interval as AnalyticsInterval, timeZone };
}

/**
 * One of the account's links' clicks over [from, to): the sums of its hour counters (the hour
 * holding `from` whole), a series per hour or day of the caller's time zone (daylight saving time
 * included: kit-core periodStart), and the clicks per device type, OS, browser, referrer host and
 * country, most first. Bad arguments are INVALID_ARGUMENT before anything is read; a link of
 * another account, of none, or none at all is NOT_FOUND alike. At most 24 documents a day,
 * whatever the link's clicks, and settled days from memory (adapters/cached-link-hours.ts).
 */
export async function getLinkAnalytics(deps: LinkAnalyticsDeps, q: LinkAnalyticsQuery): Promise<LinkAnalytics> {
  const range = checkRange(q, deps.clock.now());
  const starts = bucketStarts(range.from, range.to, range.interval, range.timeZone, MAX_BUCKETS[range.interval]);
  if (!starts) throw errors.internal(`more ${range.interval}s than a range can hold in ${range.timeZone}`);
  const link = q.code ? await deps.links.findByCode(q.code) : null;
  if (!link || !q.accountId || link.accountId !== q.accountId) throw errors.notFound('code', q.code);
  const firstHour = new Date(Math.floor(range.from.getTime() / HOUR_MS) * HOUR_MS);
  const { hours, lists } = await deps.hours.summary(q.code, firstHour, range.to);
  let clicks = 0;
  let botsExcluded = 0;
  for (const h of hours) {
    clicks += h.clicks;
    botsExcluded += h.botsExcluded;
  }
  return { ...range, clicks, botsExcluded, series: seriesOf(starts, hours), ...sortedLists(lists) };
}
