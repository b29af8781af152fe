import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, rateLimitHeaders, toAdmission } from '../src/index.js';

const now = 1_000_000;
const tiers = DEFAULT_LIMITS.tiers;

describe('rate limit headers (draft-ietf-httpapi-ratelimit-headers)', () => {
  it('lists every tier in RateLimit-Policy and the tier closest to refusing in RateLimit', () => {
    const admission = toAdmission(
      tiers,
      [
        { count: 17, endsAtMs: now + 1_200 },
        { count: 17, endsAtMs: now + 20_000 },
        { count: 78, endsAtMs: now + 100_000 },
        { count: 100, endsAtMs: now + 600_000 },
      ],
      true,
      now,
      1,
      'redis',
    );
    expect(admission.bindingTier).toBe(2);
    expect(rateLimitHeaders(admission)).toEqual({
      'RateLimit-Policy': '"t0";q=20;w=5, "t1";q=40;w=25, "t2";q=80;w=125, "t3";q=160;w=625',
      RateLimit: '"t2";r=2;t=100',
    });
  });

  it('on refusal names the full tier that resets last and sends Retry-After equal to its t', () => {
    const admission = toAdmission(
      tiers,
      [
        { count: 20, endsAtMs: now + 2_001 },
        { count: 40, endsAtMs: now + 9_000 },
        { count: 40, endsAtMs: now + 100_000 },
        { count: 40, endsAtMs: now + 600_000 },
      ],
      false,
      now,
      1,
      'redis',
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
