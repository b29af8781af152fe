import type { Admission } from './fixed-window.js';

/**
 * The response headers of draft-ietf-httpapi-ratelimit-headers (-10/-11), as Structured Field
 * lists: `RateLimit-Policy` names every tier with its quota and window
 * (`"t0";q=20;w=5, "t1";q=40;w=25`), `RateLimit` the binding tier's service limit
 * (`"t0";r=3;t=2`), and a refusal adds `Retry-After` in seconds. Retry-After equals the
 * RateLimit `t` of the binding tier, never earlier (section 6 of the draft asks for that), and that
 * tier is the last of the full ones to reset.
 * Nothing when limits are disabled. No `pk` parameter: it would only echo the caller's own account.
 */
export function rateLimitHeaders(admission: Admission): Record<string, string> {
  if (admission.tiers.length === 0) return {};
  const policy = admission.tiers.map((t) => `"${t.name}";q=${t.limit};w=${t.windowSeconds}`).join(', ');
  const binding = admission.tiers[admission.bindingTier] ?? admission.tiers[0]!;
  const headers: Record<string, string> = {
    'RateLimit-Policy': policy,
    RateLimit: `"${binding.name}";r=${binding.remaining};t=${binding.resetSeconds}`,
  };
  if (!admission.admitted) headers['Retry-After'] = String(admission.retryAfterSec);
  return headers;
}
