import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LimitsConfigError, parseLimitsConfig, parseLimitsFile } from '../src/index.js';

describe('limits config validation', () => {
  it('accepts the documented shape and names tiers t0, t1, ... unless named', () => {
    const cfg = parseLimitsConfig({
      tiers: [
        { limit: 20, window_seconds: 5 },
        { name: 'hourly', limit: 100, window_seconds: 3600 },
      ],
    });
    expect(cfg).toEqual({
      enabled: true,
      tiers: [
        { name: 't0', limit: 20, windowSeconds: 5 },
        { name: 'hourly', limit: 100, windowSeconds: 3600 },
      ],
    });
  });

  it('defaults to the four documented tiers', () => {
    expect(DEFAULT_LIMITS.tiers.map((t) => [t.limit, t.windowSeconds])).toEqual([
      [20, 5],
      [40, 25],
      [80, 125],
      [160, 625],
    ]);
  });

  it('may be disabled without tiers', () => {
    expect(parseLimitsConfig({ enabled: false, tiers: [] })).toEqual({ enabled: false, tiers: [] });
    // An operator turning limits off writes just that.
    expect(parseLimitsFile('enabled: false\n', 'sms-limits.yaml')).toEqual({ enabled: false, tiers: [] });
    expect(() => parseLimitsFile('{"enabled": true}', 'sms-limits.json')).toThrow(/tiers: at least one tier/);
  });

  it('names every offending field', () => {
    const bad = {
      enabled: 'yes',
      tiers: [
        { limit: 20, window_seconds: 5 },
        { limit: 0, window_seconds: 2.5 },
        { limit: 1, windows_seconds: 3 },
      ],
    };
    let err: unknown;
    try {
      parseLimitsConfig(bad, 'limits.json');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LimitsConfigError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/^limits.json is invalid/);
    expect(msg).toMatch(/enabled: /);
    expect(msg).toMatch(/tiers\.1\.limit: /);
    expect(msg).toMatch(/tiers\.1\.window_seconds: /);
    expect(msg).toMatch(/tiers\.2\.window_seconds: /); // missing, because misspelt
    expect(msg).toMatch(/tiers\.2: .*windows_seconds/); // the unknown key itself
  });

  it('refuses an enabled config without tiers and duplicate names', () => {
    expect(() => parseLimitsConfig({ tiers: [] })).toThrow(/tiers: at least one tier/);
    expect(() =>
      parseLimitsConfig({
        tiers: [
          { name: 'a', limit: 1, window_seconds: 1 },
          { name: 'a', limit: 2, window_seconds: 2 },
        ],
      }),
    ).toThrow(/tiers\.1\.name: duplicate tier name "a"/);
    expect(() => parseLimitsConfig({ tiers: [{ name: 'Bad"Name', limit: 1, window_seconds: 1 }] })).toThrow(/tiers\.0\.name/);
  });

  it('reads YAML for .yaml paths and JSON otherwise, naming the syntax error', () => {
    const yaml = 'enabled: true\ntiers:\n  - limit: 3\n    window_seconds: 7\n';
    expect(parseLimitsFile(yaml, '/etc/limits.yaml').tiers).toEqual([{ name: 't0', limit: 3, windowSeconds: 7 }]);
    expect(() => parseLimitsFile('{"tiers": [', '/etc/limits.json')).toThrow(/limits.json is not valid JSON/);
    expect(() => parseLimitsFile('tiers: [', '/etc/limits.yml')).toThrow(/limits.yml is not valid YAML/);
  });
});
