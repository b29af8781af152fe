import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule, retryDelayMs } from '../src/domain/retry-schedule.js';

describe('retry schedule', () => {
  it('defaults to 5 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h, 12 h, 24 h (docs/api.md)', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual(parseRetrySchedule('5s,30s,2m,10m,30m,2h,6h,12h,24h'));
    expect(DEFAULT_RETRY_SCHEDULE_MS.slice(0, 2).reduce((a, b) => a + b)).toBeLessThan(60_000);
  });

  it('parses units and bare seconds, refusing anything else by name', () => {
    expect(parseRetrySchedule('250ms, 1, 2s,1m,1h,1d')).toEqual([250, 1000, 2000, 60_000, 3_600_000, 86_400_000]);
    expect(() => parseRetrySchedule('5s,soon')).toThrow(/"soon"/);
    expect(() => parseRetrySchedule('0s')).toThrow(/above zero/);
    expect(() => parseRetrySchedule('')).toThrow(/at least one/);
  });

  it('jitters each step within ±20 % and ends after the last step', () => {
    const schedule = [10_000, 60_000];
    expect(retryDelayMs(schedule, 0, 0)).toBe(8_000);
    expect(retryDelayMs(schedule, 0, 0.5)).toBe(10_000);
    expect(retryDelayMs(schedule, 1, 0.999_999)).toBeLessThanOrEqual(72_000);
    expect(retryDelayMs(schedule, 1, 0.999_999)).toBeGreaterThan(71_000);
    expect(retryDelayMs(schedule, 2, 0.5)).toBeNull();
  });
});
