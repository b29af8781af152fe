import { describe, expect, it } from 'vitest';
import { isTimeZone, periodStart } from '../src/dates.js';

describe('periods in a time zone', () => {
  it('starts a day at local midnight, with the offset of that instant', () => {
    expect(periodStart(new Date('2026-11-22T20:59:00Z'), 'day', 'Europe/Istanbul')).toBe('2026-11-22T00:00:00.000+03:00');
    expect(periodStart(new Date('2026-11-22T21:00:00Z'), 'day', 'Europe/Istanbul')).toBe('2026-11-23T00:00:00.000+03:00');
    expect(periodStart(new Date('2026-11-22T09:30:00Z'), 'day', 'UTC')).toBe('2026-11-22T00:00:00.000+00:00');
    expect(periodStart(new Date('2026-11-22T03:00:00Z'), 'day', 'America/New_York')).toBe('2026-11-21T00:00:00.000-05:00');
  });

  it('follows daylight saving time: the day after a change starts at the new offset', () => {
    // Berlin went to summer time on 2026-03-29 at 02:00 (+01:00 → +02:00).
    expect(periodStart(new Date('2026-03-29T12:00:00Z'), 'day', 'Europe/Berlin')).toBe('2026-03-29T00:00:00.000+01:00');
    expect(periodStart(new Date('2026-03-29T22:30:00Z'), 'day', 'Europe/Berlin')).toBe('2026-03-30T00:00:00.000+02:00');
    // Back on 2026-10-25 at 03:00 (+02:00 → +01:00): that day is 25 hours long.
    expect(periodStart(new Date('2026-10-25T22:59:00Z'), 'day', 'Europe/Berlin')).toBe('2026-10-25T00:00:00.000+02:00');
    expect(periodStart(new Date('2026-10-25T23:00:00Z'), 'day', 'Europe/Berlin')).toBe('2026-10-26T00:00:00.000+01:00');
  });

  it('starts a day whose midnight is skipped at its first instant', () => {
    // Santiago moved clocks from 00:00 to 01:00 on 2026-09-06.
    expect(periodStart(new Date('2026-09-06T12:00:00Z'), 'day', 'America/Santiago')).toBe('2026-09-06T01:00:00.000-03:00');
  });

  it('starts a week on Monday, across a change of offset', () => {
    // Sunday 2026-11-01 in New York (clocks went back that day) belongs to the week of Monday 2026-10-26 (-04:00).
    expect(periodStart(new Date('2026-11-01T18:00:00Z'), 'week', 'America/New_York')).toBe('2026-10-26T00:00:00.000-04:00');
    expect(periodStart(new Date('2026-11-02T06:00:00Z'), 'week', 'America/New_York')).toBe('2026-11-02T00:00:00.000-05:00');
    expect(periodStart(new Date('2026-11-22T09:30:00Z'), 'week', 'UTC')).toBe('2026-11-16T00:00:00.000+00:00');
  });

  it("starts an hour on the zone's whole hour, across a change of offset", () => {
    expect(periodStart(new Date('2026-11-22T09:59:59.999Z'), 'hour', 'Europe/Istanbul')).toBe('2026-11-22T12:00:00.000+03:00');
    // Kolkata is +05:30: its hours start at :30 UTC.
    expect(periodStart(new Date('2026-11-22T09:29:00Z'), 'hour', 'Asia/Kolkata')).toBe('2026-11-22T14:00:00.000+05:30');
    expect(periodStart(new Date('2026-11-22T09:30:00Z'), 'hour', 'Asia/Kolkata')).toBe('2026-11-22T15:00:00.000+05:30');
    // Berlin's 02:00-03:00 comes twice on 2026-10-25: two hours, told apart by their offsets.
    expect(periodStart(new Date('2026-10-25T00:30:00Z'), 'hour', 'Europe/Berlin')).toBe('2026-10-25T02:00:00.000+02:00');
    expect(periodStart(new Date('2026-10-25T01:30:00Z'), 'hour', 'Europe/Berlin')).toBe('2026-10-25T02:00:00.000+01:00');
    // ... and is skipped on 2026-03-29: 01:xx (+01:00) is followed by 03:00 (+02:00).
    expect(periodStart(new Date('2026-03-29T00:59:00Z'), 'hour', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000+01:00');
    expect(periodStart(new Date('2026-03-29T01:00:00Z'), 'hour', 'Europe/Berlin')).toBe('2026-03-29T03:00:00.000+02:00');
  });

  it('knows IANA zones', () => {
    expect(isTimeZone('Europe/Istanbul')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
