import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, rateLimitHeaders, toAdmission } from '../src/index.js';

const now = 1_000_000;
/** What the default tiers admit at `now` for a request of cost 1, when Redis counted each tier's window so far. */
const admissionOf = (windows: Array<[count: number, endsInMs: number]>, admitted: boolean) =>
  toAdmission(
    DEFAULT_LIMITS.tiers,
    windows.map(([count, endsInMs]) => ({ count, endsAtMs: now + endsInMs })),
    admitted,
    now,
    1,
    'redis',
  );

describe('rate limit headers (draft-ietf-httpapi-ratelimit-headers)', () => {
  it('lists every tier in RateLimit-Policy and the tier closest to refusing in RateLimit', () => {
    const admission = admissionOf(
      [
        [17, 1_200],
        [17, 20_000],
        [78, 100_000],
        [100, 600_000],
      ],
      true,
    );
    expect(admission.bindingTier).toBe(2);
    expect(rateLimitHeaders(admission)).toEqual({
      'RateLimit-Policy': '"t0";q=20;w=5, "t1";q=40;w=25, "t2";q=80;w=125, "t3";q=160;w=625',
      RateLimit: '"t2";r=2;t=100',
    });
  });

  it('on refusal names the full tier that resets last and sends Retry-After equal to its t', () => {
    const admission = admissionOf(
      [
        [20, 2_001],
        [40, 9_000],
        [40, 100_000],
        [40, 600_000],
      ],
      false,
    );
    expect(admission).toMatchObject({ admitted: false, retryAfterSec: 9, bindingTier: 1 });
    const h = rateLimitHeaders(admission);
    expect(h.RateLimit).toBe('"t1";r=0;t=9');
    expect(h['Retry-After']).toBe('9');
  });

  it('sends nothing when limits are disabled', () => {
    expect(rateLimitHeaders({ admitted: true, tiers: [], bindingTier: -1, source: 'disabled' })).toEqual({});
  });
});
