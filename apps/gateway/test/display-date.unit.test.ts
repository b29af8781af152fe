import { describe, expect, it } from 'vitest';
import { displayDateFormatter, isTimeZone } from '../src/api/surveys/display-date.js';
import { loadEnv } from '../src/env.js';

describe('LastActivationDate formatter (dd.MM.yyyy HH:mm:ss in the display zone)', () => {
  const at = '2026-11-22T09:05:07.123Z';

  it('formats in UTC with zero padding and a 24-hour clock', () => {
    const utc = displayDateFormatter('UTC');
    expect(utc(at)).toBe('22.11.2026 09:05:07');
    expect(utc('2026-01-02T23:59:59.999Z')).toBe('02.01.2026 23:59:59');
    expect(utc(new Date('2026-03-04T00:00:00Z'))).toBe('04.03.2026 00:00:00');
  });

  it('formats in Europe/Istanbul (UTC+3), crossing midnight into the next day', () => {
    const istanbul = displayDateFormatter('Europe/Istanbul');
    expect(istanbul(at)).toBe('22.11.2026 12:05:07');
    expect(istanbul('2026-12-31T22:30:00Z')).toBe('01.01.2027 01:30:00');
  });

  it('follows daylight saving time where the zone has it', () => {
    const ny = displayDateFormatter('America/New_York');
    expect(ny('2026-01-15T12:00:00Z')).toBe('15.01.2026 07:00:00');
    expect(ny('2026-07-15T12:00:00Z')).toBe('15.07.2026 08:00:00');
  });

  it('refuses what is not a date', () => {
    expect(() => displayDateFormatter('UTC')('')).toThrow(/not a date/);
  });

  it('DISPLAY_TIME_ZONE is checked at start-up', () => {
    expect(isTimeZone('Europe/Istanbul')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    const base = { ADMIN_TOKEN: 'x'.repeat(32) };
    expect(loadEnv(base).DISPLAY_TIME_ZONE).toBe('UTC');
    expect(loadEnv({ ...base, DISPLAY_TIME_ZONE: 'Europe/Istanbul' }).DISPLAY_TIME_ZONE).toBe('Europe/Istanbul');
    expect(() => loadEnv({ ...base, DISPLAY_TIME_ZONE: 'Mars/Olympus_Mons' })).toThrow(/DISPLAY_TIME_ZONE/);
  });
});
