import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { nextSendTime, parseIsoDuration, parseSendAt, parseSendWindow, type SendWindow } from '../src/shared/domain/send-window.js';

const utc = (iso: string) => new Date(iso);

/** The fields of the invalid error `run` throws. */
function invalidFields(run: () => unknown): Record<string, string> {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).kind).toBe('invalid');
    return (e as AppError).fields;
  }
  throw new Error('expected an invalid error');
}

describe('nextSendTime', () => {
  // Istanbul is UTC+3 all year. 2026-03-02 is a Monday.
  const istanbul: SendWindow = { start: '09:00', end: '21:00', timeZone: 'Europe/Istanbul', days: [] };

  it('answers the time itself without a window', () => {
    const at = utc('2026-03-02T02:00:00Z');
    expect(nextSendTime(null, at)).toBe(at);
  });

  it('answers the time itself inside the window, start included and end excluded', () => {
    for (const iso of ['2026-03-02T06:00:00.000Z', '2026-03-02T12:00:00Z', '2026-03-02T17:59:59.999Z']) {
      const at = utc(iso);
      expect(nextSendTime(istanbul, at), iso).toBe(at);
    }
  });

  it('answers the next opening outside it, in the window zone', () => {
    expect(nextSendTime(istanbul, utc('2026-03-02T05:59:59.999Z'))).toEqual(utc('2026-03-02T06:00:00Z'));
    expect(nextSendTime(istanbul, utc('2026-03-02T00:00:00Z'))).toEqual(utc('2026-03-02T06:00:00Z'));
    expect(nextSendTime(istanbul, utc('2026-03-02T18:00:00Z'))).toEqual(utc('2026-03-03T06:00:00Z'));
    // 22:30 UTC is already 01:30 on Tuesday in Istanbul.
    expect(nextSendTime(istanbul, utc('2026-03-02T22:30:00Z'))).toEqual(utc('2026-03-03T06:00:00Z'));
  });

  describe('across daylight saving time in Berlin (2026-03-29, 02:00 -> 03:00; 2026-10-25, 03:00 -> 02:00)', () => {
    const berlin: SendWindow = { start: '02:30', end: '08:00', timeZone: 'Europe/Berlin', days: [] };

    it('opens at 02:30 CET the day before the change', () => {
      expect(nextSendTime(berlin, utc('2026-03-27T23:00:00Z'))).toEqual(utc('2026-03-28T01:30:00Z'));
    });

    it('opens at 03:00 CEST, the first instant after the skipped 02:30, on the day of the change', () => {
      expect(nextSendTime(berlin, utc('2026-03-28T23:00:00Z'))).toEqual(utc('2026-03-29T01:00:00Z'));
      expect(nextSendTime(berlin, utc('2026-03-29T00:59:59Z'))).toEqual(utc('2026-03-29T01:00:00Z'));
      const inside = utc('2026-03-29T01:10:00Z'); // 03:10 CEST
      expect(nextSendTime(berlin, inside)).toBe(inside);
    });

    it('opens at 02:30 CEST the day after', () => {
      expect(nextSendTime(berlin, utc('2026-03-29T06:00:00Z'))).toEqual(utc('2026-03-30T00:30:00Z'));
    });

    it('opens at the first of two 02:30s when the clocks go back', () => {
      expect(nextSendTime(berlin, utc('2026-10-24T22:00:00Z'))).toEqual(utc('2026-10-25T00:30:00Z'));
      expect(nextSendTime(berlin, utc('2026-10-25T07:00:00Z'))).toEqual(utc('2026-10-26T01:30:00Z'));
    });

    it('keeps office hours in wall-clock time: 09:00 is 08:00 UTC in winter, 07:00 UTC in summer', () => {
      const office: SendWindow = { start: '09:00', end: '17:00', timeZone: 'Europe/Berlin', days: [] };
      expect(nextSendTime(office, utc('2026-03-28T17:00:00Z'))).toEqual(utc('2026-03-29T07:00:00Z'));
      expect(nextSendTime(office, utc('2026-03-27T17:00:00Z'))).toEqual(utc('2026-03-28T08:00:00Z'));
      const evening = utc('2026-03-29T15:30:00Z'); // 17:30 CEST: closed
      expect(nextSendTime(office, evening)).toEqual(utc('2026-03-30T07:00:00Z'));
    });
  });

  describe('a window spanning midnight (22:00-06:00 Istanbul)', () => {
    const night: SendWindow = { start: '22:00', end: '06:00', timeZone: 'Europe/Istanbul', days: [] };

    it('is open from its start to midnight and from midnight to its end', () => {
      for (const iso of ['2026-03-02T19:00:00Z', '2026-03-02T20:59:59Z', '2026-03-02T21:00:00Z', '2026-03-03T02:59:59Z']) {
        const at = utc(iso);
        expect(nextSendTime(night, at), iso).toBe(at);
      }
    });

    it('opens at 22:00 when closed', () => {
      expect(nextSendTime(night, utc('2026-03-03T03:00:00Z'))).toEqual(utc('2026-03-03T19:00:00Z'));
      expect(nextSendTime(night, utc('2026-03-03T12:00:00Z'))).toEqual(utc('2026-03-03T19:00:00Z'));
    });

    it('names in its days the day it opens', () => {
      // 2026-03-06 is a Friday: open from Friday 22:00 to Saturday 06:00.
      const friday: SendWindow = { ...night, days: ['fri'] };
      const saturdayMorning = utc('2026-03-07T02:00:00Z'); // 05:00 Saturday
      expect(nextSendTime(friday, saturdayMorning)).toBe(saturdayMorning);
      expect(nextSendTime(friday, utc('2026-03-06T18:00:00Z'))).toEqual(utc('2026-03-06T19:00:00Z'));
      // Friday 05:00 belongs to Thursday's window, closed.
      expect(nextSendTime(friday, utc('2026-03-06T02:00:00Z'))).toEqual(utc('2026-03-06T19:00:00Z'));
      // Saturday 23:00: Saturday's window is closed; the next opens a week after Friday's.
      expect(nextSendTime(friday, utc('2026-03-07T20:00:00Z'))).toEqual(utc('2026-03-13T19:00:00Z'));
    });
  });

  describe('days', () => {
    const weekdays: SendWindow = { start: '09:00', end: '18:00', timeZone: 'Europe/Istanbul', days: ['mon', 'tue', 'wed', 'thu', 'fri'] };

    it('waits from Friday evening to Monday morning', () => {
      // Friday 2026-03-06 22:00 Istanbul -> Monday 2026-03-09 09:00.
      expect(nextSendTime(weekdays, utc('2026-03-06T19:00:00Z'))).toEqual(utc('2026-03-09T06:00:00Z'));
      expect(nextSendTime(weekdays, utc('2026-03-07T09:00:00Z'))).toEqual(utc('2026-03-09T06:00:00Z'));
      expect(nextSendTime(weekdays, utc('2026-03-08T20:59:00Z'))).toEqual(utc('2026-03-09T06:00:00Z'));
    });

    it('is open on a weekday inside the hours', () => {
      const fridayMorning = utc('2026-03-06T07:00:00Z');
      expect(nextSendTime(weekdays, fridayMorning)).toBe(fridayMorning);
    });

    it('waits a week for a window open one day', () => {
      const mondays: SendWindow = { ...weekdays, days: ['mon'] };
      expect(nextSendTime(mondays, utc('2026-03-09T15:00:00Z'))).toEqual(utc('2026-03-16T06:00:00Z'));
    });
  });
});

describe('parseSendWindow', () => {
  it('reads a window, its zone in canonical spelling and its days in week order', () => {
    expect(parseSendWindow({ start: '09:00', end: '18:30', timeZone: 'Europe/Istanbul', days: ['fri', 'mon'] })).toEqual({
      start: '09:00',
      end: '18:30',
      timeZone: 'Europe/Istanbul',
      days: ['mon', 'fri'],
    });
    expect(parseSendWindow({ start: '22:00', end: '06:00', time_zone: 'europe/berlin' })).toEqual({
      start: '22:00',
      end: '06:00',
      timeZone: 'Europe/Berlin',
      days: [],
    });
    expect(parseSendWindow({ start: '00:00', end: '23:59', timeZone: 'UTC', days: [] }).end).toBe('23:59');
  });

  it('refuses what is not an object', () => {
    for (const input of [null, undefined, 'x', 5, [], [{ start: '09:00' }]]) {
      expect(invalidFields(() => parseSendWindow(input))).toEqual({ send_window: expect.any(String) });
    }
  });

  it('refuses start and end that are not HH:MM from 00:00 to 23:59', () => {
    for (const bad of ['9:00', '24:00', '12:60', '09:00:00', ' 09:00', '0900', '', 900, null, undefined]) {
      expect(Object.keys(invalidFields(() => parseSendWindow({ start: bad, end: '18:00', timeZone: 'UTC' }))), String(bad)).toEqual([
        'send_window.start',
      ]);
      expect(Object.keys(invalidFields(() => parseSendWindow({ start: '09:00', end: bad, timeZone: 'UTC' }))), String(bad)).toEqual([
        'send_window.end',
      ]);
    }
  });

  it('refuses a start equal to the end', () => {
    expect(invalidFields(() => parseSendWindow({ start: '09:00', end: '09:00', timeZone: 'UTC' }))).toEqual({
      'send_window.end': expect.stringContaining('differ from start'),
    });
  });

  it('refuses an unknown time zone', () => {
    for (const bad of ['Mars/Olympus_Mons', 'Istanbul', '', '+03:00', 3, null, undefined]) {
      expect(
        invalidFields(() => parseSendWindow({ start: '09:00', end: '18:00', timeZone: bad })),
        String(bad),
      ).toEqual({
        'send_window.time_zone': expect.any(String),
      });
    }
  });

  it('refuses days that are not a list of distinct mon..sun', () => {
    for (const bad of ['mon', ['monday'], ['Mon'], ['mon', 'mon'], [1], [null], {}]) {
      expect(
        invalidFields(() => parseSendWindow({ start: '09:00', end: '18:00', timeZone: 'UTC', days: bad })),
        JSON.stringify(bad),
      ).toEqual({
        'send_window.days': expect.any(String),
      });
    }
    expect(invalidFields(() => parseSendWindow({ start: '09:00', end: '18:00', timeZone: 'UTC', days: ['mon', 'mon'] }))).toEqual({
      'send_window.days': 'must not repeat a day',
    });
  });

  it('names every wrong field at once', () => {
    expect(
      Object.keys(invalidFields(() => parseSendWindow({ start: '25:00', end: 'x', timeZone: 'Nowhere', days: ['x'] }))).sort(),
    ).toEqual(['send_window.days', 'send_window.end', 'send_window.start', 'send_window.time_zone']);
  });
});

describe('parseIsoDuration', () => {
  const field = 'reminders[0].after';

  it('reads days, hours, minutes, seconds and weeks', () => {
    expect(parseIsoDuration('P1D', field)).toEqual({ iso: 'P1D', ms: 86_400_000 });
    expect(parseIsoDuration('PT6H', field)).toEqual({ iso: 'PT6H', ms: 6 * 3_600_000 });
    expect(parseIsoDuration('P2DT12H', field)).toEqual({ iso: 'P2DT12H', ms: 60 * 3_600_000 });
    expect(parseIsoDuration('PT90M', field).ms).toBe(90 * 60_000);
    expect(parseIsoDuration('PT1.5H', field).ms).toBe(90 * 60_000);
    expect(parseIsoDuration('PT30S', field).ms).toBe(30_000);
    expect(parseIsoDuration('P1W', field).ms).toBe(7 * 86_400_000);
  });

  it('takes up to 30 days', () => {
    expect(parseIsoDuration('P30D', field).ms).toBe(30 * 86_400_000);
    expect(parseIsoDuration('PT720H', field).ms).toBe(30 * 86_400_000);
    expect(parseIsoDuration('P4W', field).ms).toBe(28 * 86_400_000);
  });

  it('refuses more than 30 days', () => {
    for (const bad of ['P31D', 'P30DT1S', 'PT721H', 'P5W']) {
      expect(
        invalidFields(() => parseIsoDuration(bad, field)),
        bad,
      ).toEqual({ [field]: 'must be at most 30 days (P30D)' });
    }
  });

  it('refuses zero and negative durations', () => {
    for (const bad of ['P0D', 'PT0S', 'PT0.0001S', '-P1D', 'P-1D', 'P1DT-1H']) {
      expect(
        invalidFields(() => parseIsoDuration(bad, field)),
        bad,
      ).toEqual({ [field]: 'must be more than zero' });
    }
  });

  it('refuses months and years, which have no fixed length', () => {
    for (const bad of ['P1M', 'P1Y', 'P1MT1H']) {
      expect(Object.keys(invalidFields(() => parseIsoDuration(bad, field))), bad).toEqual([field]);
    }
  });

  it('refuses what is not an ISO 8601 duration, naming the field given', () => {
    for (const bad of ['', 'P', 'PT', '1D', 'p1d', 'P1DT', 'P1H', 'one day', ' P1D', 86_400_000, null, undefined, {}]) {
      expect(
        invalidFields(() => parseIsoDuration(bad, 'after')),
        String(bad),
      ).toEqual({ after: expect.stringContaining('ISO 8601') });
    }
  });
});

describe('parseSendAt', () => {
  const now = utc('2026-03-01T10:00:00Z');

  it('reads a time with Z or an offset', () => {
    expect(parseSendAt('2026-03-01T13:30:00+03:00', now)).toEqual(utc('2026-03-01T10:30:00Z'));
    expect(parseSendAt('2026-03-01T13:30:00+0300', now)).toEqual(utc('2026-03-01T10:30:00Z'));
    expect(parseSendAt('2026-03-01T13:30+03', now)).toEqual(utc('2026-03-01T10:30:00Z'));
    expect(parseSendAt('2026-03-01T10:30Z', now)).toEqual(utc('2026-03-01T10:30:00Z'));
    expect(parseSendAt('2026-03-01T10:30:00.250Z', now)).toEqual(utc('2026-03-01T10:30:00.250Z'));
    expect(parseSendAt('2026-03-01T05:30:00-05:00', now)).toEqual(utc('2026-03-01T10:30:00Z'));
  });

  it('takes up to a minute in the past as now', () => {
    expect(parseSendAt('2026-03-01T09:59:30Z', now)).toEqual(now);
    expect(parseSendAt('2026-03-01T09:59:00Z', now)).toEqual(now);
    expect(parseSendAt('2026-03-01T10:00:00Z', now)).toEqual(now);
  });

  it('refuses earlier times', () => {
    expect(invalidFields(() => parseSendAt('2026-03-01T09:58:59Z', now))).toEqual({ send_at: 'must not be in the past' });
    expect(invalidFields(() => parseSendAt('2026-02-01T10:00:00Z', now))).toEqual({ send_at: 'must not be in the past' });
  });

  it('takes up to 30 days ahead and refuses later', () => {
    expect(parseSendAt('2026-03-31T10:00:00Z', now)).toEqual(utc('2026-03-31T10:00:00Z'));
    expect(invalidFields(() => parseSendAt('2026-03-31T10:00:00.001Z', now))).toEqual({ send_at: 'must be at most 30 days ahead' });
    expect(invalidFields(() => parseSendAt('2027-03-01T10:00:00Z', now))).toEqual({ send_at: 'must be at most 30 days ahead' });
  });

  it('takes offsets up to ±14:00 and refuses the rest, which name no zone', () => {
    expect(parseSendAt('2026-03-02T00:30:00+14:00', now)).toEqual(utc('2026-03-01T10:30:00Z'));
    expect(parseSendAt('2026-02-28T20:30:00-14:00', now)).toEqual(utc('2026-03-01T10:30:00Z'));
    expect(parseSendAt('2026-03-01T16:15:00+05:45', now)).toEqual(utc('2026-03-01T10:30:00Z'));
    for (const bad of [
      '2026-03-02T10:30:00+25:00',
      '2026-03-02T10:30:00+23:60',
      '2026-03-01T10:30:00-24:30',
      '2026-03-02T10:30+1401',
      '2026-03-02T10:30+15',
    ]) {
      expect(
        invalidFields(() => parseSendAt(bad, now)),
        bad,
      ).toEqual({ send_at: expect.stringContaining('offset from -14:00 to +14:00') });
    }
  });

  it('refuses a local time without an offset', () => {
    for (const bad of ['2026-03-01T13:30:00', '2026-03-01T13:30']) {
      expect(
        invalidFields(() => parseSendAt(bad, now)),
        bad,
      ).toEqual({ send_at: expect.stringContaining('offset or Z') });
    }
  });

  it('refuses what is not an ISO 8601 date and time', () => {
    for (const bad of ['2026-03-01', '2026-03-01 10:30Z', 'tomorrow', '', '2026-060T10:00Z', 1_772_359_200_000, null, undefined]) {
      expect(
        invalidFields(() => parseSendAt(bad, now)),
        String(bad),
      ).toEqual({ send_at: expect.stringContaining('ISO 8601') });
    }
    for (const bad of ['2026-02-30T10:00:00Z', '2026-03-01T25:00:00Z', '2026-03-01T10:61:00Z']) {
      expect(
        invalidFields(() => parseSendAt(bad, now)),
        bad,
      ).toEqual({ send_at: 'must be a valid date and time' });
    }
  });
});
