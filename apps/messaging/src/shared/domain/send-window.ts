/*
 * When a campaign's SMS may go out: its send window (daily hours in an IANA time zone, on some
 * days of the week), a sharing's send_at, and a reminder's delay (after).
 *
 * A window is [start, end) in wall-clock time of its zone: 09:00-18:00 is open at 09:00 and
 * closed at 18:00. A start after its end spans midnight: 22:00-06:00 opens at 22:00 and stays
 * open until 06:00 the next morning; its days name the day it opens (fri: Friday 22:00 to
 * Saturday 06:00). Wall-clock hours follow daylight saving time: 09:00 Berlin is 08:00 UTC in
 * winter and 07:00 UTC in summer.
 */
import { errors } from '@feedback/kit-core';
import { DateTime, Duration, IANAZone } from 'luxon';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type SendWindow = {
  /** HH:MM, 24-hour, 00:00 to 23:59. */
  start: string;
  /** HH:MM; before start: the window spans midnight. */
  end: string;
  /** IANA, e.g. Europe/Istanbul. */
  timeZone: string;
  /** The days the window opens, in week order; empty: every day. */
  days: Weekday[];
};

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MAX_AHEAD = 30 * DAY;
const CLOCK_SKEW = MINUTE;

/**
 * A send window from a request (the proto's SendWindow: start, end, timeZone or time_zone, days).
 * Throws an invalid error naming every wrong field (`send_window.start`, `send_window.end`,
 * `send_window.time_zone`, `send_window.days`), or `send_window` when it is not an object.
 * The zone comes back in its canonical spelling, the days in week order.
 */
export function parseSendWindow(input: unknown): SendWindow {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw errors.invalid({ send_window: 'must be an object with start, end, time_zone and days' });
  }
  const o = input as Record<string, unknown>;
  const problems: Record<string, string> = {};
  const start = minutesOf(o.start);
  const end = minutesOf(o.end);
  if (start === null) problems['send_window.start'] = 'must be a time HH:MM from 00:00 to 23:59';
  if (end === null) problems['send_window.end'] = 'must be a time HH:MM from 00:00 to 23:59';
  else if (end === start) problems['send_window.end'] = 'must differ from start (a start after the end spans midnight)';
  const zone = o.timeZone ?? o.time_zone;
  const timeZone = typeof zone === 'string' && IANAZone.isValidZone(zone) ? canonicalZone(zone) : null;
  if (timeZone === null) problems['send_window.time_zone'] = 'must be an IANA time zone, e.g. Europe/Istanbul';
  const days = weekdays(o.days ?? []);
  if (typeof days === 'string') problems['send_window.days'] = days;
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  return { start: o.start as string, end: o.end as string, timeZone: timeZone!, days: days as Weekday[] };
}

/**
 * When a message due at `at` may go out: `at` itself when there is no window or `at` is inside
 * it, else the window's next opening: its start on the next day it opens, in its zone. A start
 * that a daylight saving change skips that day (02:30 when clocks go from 02:00 to 03:00) opens
 * at the first instant after it (03:00); a start that happens twice (clocks going back) opens at
 * the first of them.
 */
export function nextSendTime(window: SendWindow | null, at: Date): Date {
  if (!window) return at;
  if (Number.isNaN(at.getTime())) throw new RangeError('nextSendTime: at is an invalid Date');
  const zone = IANAZone.create(window.timeZone);
  const start = minutesOf(window.start)!;
  const end = minutesOf(window.end)!;
  const opensOn = (weekday: number) => window.days.length === 0 || window.days.includes(WEEKDAYS[weekday - 1]!);

  const local = DateTime.fromJSDate(at, { zone });
  const time = local.hour * 60 + local.minute + (local.second * 1000 + local.millisecond) / MINUTE;
  const yesterday = ((local.weekday + 5) % 7) + 1; // luxon weekdays: 1 = Monday .. 7 = Sunday
  const inside =
    start < end
      ? opensOn(local.weekday) && time >= start && time < end
      : (opensOn(local.weekday) && time >= start) || (opensOn(yesterday) && time < end);
  if (inside) return at;

  // Today's opening may have passed; a window open on one day a week opens again in 7 days.
  for (let k = 0; k <= 7; k++) {
    const date = new Date(Date.UTC(local.year, local.month - 1, local.day + k));
    if (!opensOn(((date.getUTCDay() + 6) % 7) + 1)) continue;
    const opening = firstInstantAtOrAfter(zone, date.getTime() + start * MINUTE);
    if (opening >= at.getTime()) return new Date(opening);
  }
  throw new Error('nextSendTime: no opening within a week'); // unreachable: some day opens
}

/**
 * A reminder's delay (its `after`): an ISO 8601 duration in weeks, days, hours, minutes and
 * seconds (P1D, PT6H, P2DT12H, PT1.5H), more than zero and at most 30 days. Months and years
 * are refused: they have no fixed length. Errors name `field`, e.g. `reminders[0].after`.
 * `iso` is the duration as luxon writes it, `ms` its length.
 */
export function parseIsoDuration(input: unknown, field: string): { iso: string; ms: number } {
  // luxon reads a bare P or a trailing T as zero; ISO 8601 wants a number after each.
  const duration = typeof input === 'string' && !/[PT]$/.test(input) ? Duration.fromISO(input) : null;
  const parts = duration?.isValid ? duration.toObject() : {};
  if (!duration?.isValid || Object.keys(parts).length === 0) {
    throw errors.invalid({ [field]: 'must be an ISO 8601 duration, e.g. P1D, PT6H or P2DT12H' });
  }
  if (parts.years !== undefined || parts.months !== undefined || parts.quarters !== undefined) {
    throw errors.invalid({ [field]: 'must be in weeks, days, hours, minutes or seconds (a month or a year has no fixed length)' });
  }
  const ms = duration.toMillis();
  if (ms <= 0 || Object.values(parts).some((v) => v < 0)) throw errors.invalid({ [field]: 'must be more than zero' });
  if (ms > MAX_AHEAD) throw errors.invalid({ [field]: 'must be at most 30 days (P30D)' });
  return { iso: duration.toISO()!, ms };
}

// Calendar date, T, hours and minutes, optional seconds and fraction, then the offset if any.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * A sharing's send_at: an ISO 8601 date and time with an offset or Z
 * (2026-03-01T10:00:00+03:00, 2026-03-01T07:00Z); a time without one is refused, since it
 * names no instant. Up to a minute in the past (clock skew between the caller and us) means
 * now; earlier is refused, and so is more than 30 days after now. Errors name `send_at`.
 */
export function parseSendAt(input: unknown, now: Date): Date {
  const match = typeof input === 'string' ? DATE_TIME.exec(input) : null;
  if (!match) throw errors.invalid({ send_at: 'must be an ISO 8601 date and time with an offset, e.g. 2026-03-01T10:00:00+03:00' });
  if (match[1] === undefined) throw errors.invalid({ send_at: 'must have an offset or Z (a local time names no instant)' });
  if (!offsetInRange(match[1])) throw errors.invalid({ send_at: 'must have an offset from -14:00 to +14:00, minutes 00 to 59' });
  const parsed = DateTime.fromISO(input as string, { setZone: true });
  if (!parsed.isValid) throw errors.invalid({ send_at: 'must be a valid date and time' });
  const at = parsed.toMillis();
  if (at < now.getTime() - CLOCK_SKEW) throw errors.invalid({ send_at: 'must not be in the past' });
  if (at > now.getTime() + MAX_AHEAD) throw errors.invalid({ send_at: 'must be at most 30 days ahead' });
  return new Date(Math.max(at, now.getTime()));
}

// Offsets in use run from -12:00 to +14:00; luxon would take +25:00 or +23:60 and move the instant.
const MAX_OFFSET_MINUTES = 14 * 60;

function offsetInRange(offset: string): boolean {
  if (offset.toUpperCase() === 'Z') return true;
  const hours = Number(offset.slice(1, 3));
  const minutes = offset.length > 3 ? Number(offset.slice(-2)) : 0;
  return minutes <= 59 && hours * 60 + minutes <= MAX_OFFSET_MINUTES;
}

function minutesOf(hhmm: unknown): number | null {
  const m = typeof hhmm === 'string' ? HH_MM.exec(hhmm) : null;
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

// The days in week order, or why they are wrong.
function weekdays(input: unknown): Weekday[] | string {
  const known = new Set<unknown>(WEEKDAYS);
  if (!Array.isArray(input) || !input.every((d) => known.has(d))) return 'must be a list of mon, tue, wed, thu, fri, sat, sun';
  if (new Set(input).size !== input.length) return 'must not repeat a day';
  return WEEKDAYS.filter((d) => input.includes(d));
}

// Europe/berlin -> Europe/Berlin: the spelling the runtime's time zone data uses.
function canonicalZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

/**
 * The first instant at which the zone's wall clock reads `wall` (a local date and time written
 * as if it were UTC milliseconds) or, when the clocks skip it, the instant they skip it (the
 * change). Takes the zone's offsets a day before and after as the candidates: no zone changes
 * its offset twice within a day.
 */
function firstInstantAtOrAfter(zone: IANAZone, wall: number): number {
  const before = zone.offset(wall - DAY);
  const after = zone.offset(wall + DAY);
  const readsWall = (instant: number) => instant + zone.offset(instant) * MINUTE === wall;
  const candidates = [wall - before * MINUTE, wall - after * MINUTE].filter(readsWall);
  if (candidates.length > 0) return Math.min(...candidates);
  // Skipped: read with the later offset, `wall` is before the change; with the earlier, after it.
  let lo = wall - after * MINUTE;
  let hi = wall - before * MINUTE;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zone.offset(mid) === after) hi = mid;
    else lo = mid;
  }
  return hi;
}
