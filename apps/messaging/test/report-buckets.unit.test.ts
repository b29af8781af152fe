import { describe, expect, it } from 'vitest';
import { bucketStarts, seriesOf } from '../src/reports/domain/report-buckets.js';
import type { CampaignTallyRow } from '../src/reports/report-reads.ports.js';
import { zeroTotals } from '../src/reports/domain/report-totals.js';

const d = (iso: string) => new Date(iso);
const labels = (from: string, to: string, interval: 'hour' | 'day', zone: string, max = 1000) =>
  bucketStarts(d(from), d(to), interval, zone, max)?.map((b) => b.label);
/** A 15-minute counter document with `sent` set. */
const row = (start: string, sent: number): CampaignTallyRow => ({
  ...zeroTotals(),
  promoters: 0,
  passives: 0,
  detractors: 0,
  start: d(start),
  sent,
});
const lengthsInHours = (from: string, to: string, interval: 'hour' | 'day', zone: string) => {
  const starts = bucketStarts(d(from), d(to), interval, zone, 1000)!.map((b) => b.at);
  return starts.slice(1).map((at, i) => (at - starts[i]!) / 3_600_000);
};

describe("the report's buckets in the caller's time zone", () => {
  it('has days of 23 and 25 hours around daylight saving time (Europe/Berlin)', () => {
    // Summer time began on 2026-03-29 (02:00 → 03:00) and ended on 2026-10-25 (03:00 → 02:00).
    expect(labels('2026-03-28T00:00:00+01:00', '2026-03-31T00:00:00+02:00', 'day', 'Europe/Berlin')).toEqual([
      '2026-03-28T00:00:00.000+01:00',
      '2026-03-29T00:00:00.000+01:00',
      '2026-03-30T00:00:00.000+02:00',
    ]);
    expect(lengthsInHours('2026-03-28T00:00:00+01:00', '2026-03-31T00:00:00+02:00', 'day', 'Europe/Berlin')).toEqual([24, 23]);
    expect(lengthsInHours('2026-10-24T00:00:00+02:00', '2026-10-27T00:00:00+01:00', 'day', 'Europe/Berlin')).toEqual([24, 25]);
  });

  it('sums the 15-minute documents of a 25-hour day into that day, and the next quarter hour into the next', () => {
    const starts = bucketStarts(d('2026-10-25T00:00:00+02:00'), d('2026-10-27T00:00:00+01:00'), 'day', 'Europe/Berlin', 10)!;
    // 2026-10-25 in Berlin runs from 2026-10-24T22:00Z to 2026-10-25T23:00Z.
    const rows = [
      row('2026-10-24T22:00:00Z', 1),
      row('2026-10-25T12:00:00Z', 2),
      row('2026-10-25T22:45:00Z', 4),
      row('2026-10-25T23:00:00Z', 8),
    ];
    expect(seriesOf(starts, rows).map((b) => [b.start, b.sent])).toEqual([
      ['2026-10-25T00:00:00.000+02:00', 7],
      ['2026-10-26T00:00:00.000+01:00', 8],
    ]);
  });

  it('starts the hours of a half-hour zone at :30 UTC (Asia/Kolkata), days at its midnight', () => {
    expect(labels('2026-11-22T09:00:00Z', '2026-11-22T11:00:00Z', 'hour', 'Asia/Kolkata')).toEqual([
      '2026-11-22T14:00:00.000+05:30',
      '2026-11-22T15:00:00.000+05:30',
      '2026-11-22T16:00:00.000+05:30',
    ]);
    const starts = bucketStarts(d('2026-11-21T18:30:00Z'), d('2026-11-23T18:30:00Z'), 'day', 'Asia/Kolkata', 10)!;
    const series = seriesOf(starts, [row('2026-11-22T18:15:00Z', 1), row('2026-11-22T18:30:00Z', 2)]);
    expect(series.map((b) => [b.start, b.sent])).toEqual([
      ['2026-11-22T00:00:00.000+05:30', 1],
      ['2026-11-23T00:00:00.000+05:30', 2],
    ]);
  });

  it('counts hour by hour, the repeated hour of a change of offset twice, empty hours too', () => {
    // New York went back on 2026-11-01 at 02:00 (-04:00 → -05:00): 01:00-02:00 came twice.
    expect(labels('2026-11-01T04:00:00Z', '2026-11-01T08:00:00Z', 'hour', 'America/New_York')).toEqual([
      '2026-11-01T00:00:00.000-04:00',
      '2026-11-01T01:00:00.000-04:00',
      '2026-11-01T01:00:00.000-05:00',
      '2026-11-01T02:00:00.000-05:00',
    ]);
    const starts = bucketStarts(d('2026-11-22T10:00:00Z'), d('2026-11-22T13:00:00Z'), 'hour', 'UTC', 10)!;
    const series = seriesOf(starts, [row('2026-11-22T10:00:00Z', 1), row('2026-11-22T10:45:00Z', 2), row('2026-11-22T12:15:00Z', 4)]);
    expect(series.map((b) => b.sent)).toEqual([3, 0, 4]);
  });

  it('starts at the bucket holding `from` and ends with the one holding the last instant before `to`', () => {
    expect(labels('2026-11-22T10:30:00Z', '2026-11-24T00:00:00Z', 'day', 'UTC')).toEqual([
      '2026-11-22T00:00:00.000+00:00',
      '2026-11-23T00:00:00.000+00:00',
    ]);
    expect(labels('2026-11-22T10:30:00Z', '2026-11-24T00:00:00.001Z', 'day', 'UTC')).toHaveLength(3);
  });

  it('stops counting past the most buckets a report has', () => {
    expect(labels('2026-01-01T00:00:00Z', '2026-01-11T00:00:00Z', 'day', 'UTC', 10)).toHaveLength(10);
    expect(labels('2026-01-01T00:00:00Z', '2026-01-11T00:00:01Z', 'day', 'UTC', 10)).toBeUndefined();
    expect(labels('1970-01-01T00:00:00Z', '9999-01-01T00:00:00Z', 'hour', 'UTC', 744)).toBeUndefined();
  });
});
