import { errors } from '@feedback/kit-core';
import { rateLimitHeaders, type Admission } from '@feedback/kit-limits';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../../http/auth.js';

/** Redis key prefix of the limit: every gateway process uses it, so they share the counts. */
export const SMS_LIMIT_PREFIX = 'sms-sharing';

export interface SharingLimiter {
  admit(key: string): Promise<Admission>;
}

/**
 * After authentication, before the body is read: the account's four-tier limit (kit-limits,
 * shared by every gateway process through Redis). Admitted and refused answers both carry
 * RateLimit / RateLimit-Policy; a refusal adds Retry-After and is 429 / 13005.
 */
export function sharingLimitHook(limiter: SharingLimiter) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const admission = await limiter.admit(principalOf(req).accountId);
    reply.headers(rateLimitHeaders(admission));
    if (!admission.admitted) throw errors.rateLimited();
  };
}

/** An operator may stop an account's SMS without revoking its tokens (files, flows keep working): 403 / 13013. */
export function smsAllowedHook(disabledAccounts: ReadonlySet<string>) {
  return async (req: FastifyRequest) => {
    if (disabledAccounts.has(principalOf(req).accountId)) throw errors.permissionDenied();
  };
}
