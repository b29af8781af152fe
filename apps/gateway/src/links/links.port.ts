import type { RequestContext } from '@feedback/kit-core/runtime';
import type { ResolveRequest, ResolveResponse, ShortenRequest, ShortenResponse } from '@feedback/proto/feedback/shortener/v1/shortener';

/**
 * The link listener runs without an async request context (its own thread, docs/decisions.md),
 * so its calls carry the request's ids themselves.
 */
export interface CallContext {
  context?: RequestContext;
}

/** What the link listener needs from the shortener service. */
export interface ShortenPort {
  shorten(req: ShortenRequest, opts?: CallContext): Promise<ShortenResponse>;
}

export interface ResolvePort {
  resolve(req: ResolveRequest, opts?: CallContext): Promise<ResolveResponse>;
}

export interface RateDecision {
  allowed: boolean;
  /** True for exempt clients: no limit applies, so no limit is advertised. */
  exempt?: boolean;
  limit: number;
  windowSec: number;
  remaining: number;
  /** Until the window resets (allowed) or until a retry can succeed (refused). */
  resetMs: number;
}

/** A per-client limit of POST /shorten. */
export interface ClientRateLimiter {
  consume(clientIp: string): Promise<RateDecision>;
}
