import { AppError, errors } from '@feedback/kit-core';
import { LINK_LIMITS, type Link, type LinkSettings } from './link.js';
import { checkTargetUrl } from './target-url.js';

/** What an account may say about a link besides its target: set at Shorten, changed by UpdateLink. */
export type LinkOptions = Pick<Link, 'title' | 'tags' | 'expiresAt' | 'maxClicks' | 'expiredUrl'>;

/**
 * An expired_url on a customer domain is a link to ourselves, like such a `url` (link.use-cases.ts):
 * refused naming it. `isShortDomain` looks the host up among the customer domains.
 */
export async function checkExpiredUrlHost(options: LinkOptions, isShortDomain: (host: string) => Promise<boolean>): Promise<void> {
  if (options.expiredUrl && (await isShortDomain(new URL(options.expiredUrl).hostname))) {
    throw errors.invalid({ expired_url: 'must not point to a short link domain' });
  }
}

/** The options as they come over gRPC: strings and numbers, each absent when not given. */
export interface LinkOptionsInput {
  title?: string;
  tags?: string[];
  expiresAt?: string;
  maxClicks?: number;
  expiredUrl?: string;
}

/** RFC 3339: a date-time with seconds and an offset (Z or ±hh:mm), as `expires_at` is documented. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 instant, or null when the text is none (a 31st of February included). */
export function parseRfc3339(text: string): Date | null {
  if (!RFC3339.test(text)) return null;
  const at = new Date(text.replace(' ', 'T'));
  if (Number.isNaN(at.getTime())) return null;
  // Date reads 2026-02-30 as March 2nd; the calendar day written must be the one read (in its offset).
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return null;
  return at;
}

type Rules = Pick<LinkSettings, 'maxUrlLength' | 'shortBase'>;

/**
 * The options given, checked; every problem named by its field. `now` refuses an expiry already
 * past: a link made (or changed) to be dead is a mistake, not a wish. Empty strings and a
 * max_clicks of 0 mean "none" (proto3's absent), so a change may clear them.
 */
export function checkLinkOptions(input: LinkOptionsInput, rules: Rules, now: Date): LinkOptions {
  const problems: Record<string, string> = {};
  // A key present with `undefined`: the option is cleared (UpdateLink); absent: left as it is.
  const out: LinkOptions = {};
  if (input.title !== undefined) {
    if (input.title.length > LINK_LIMITS.maxTitle) problems.title = `must be at most ${LINK_LIMITS.maxTitle} characters`;
    else out.title = input.title || undefined;
  }
  if (input.tags !== undefined) {
    const tags = [...new Set(input.tags)];
    if (tags.length > LINK_LIMITS.maxTags) problems.tags = `must hold at most ${LINK_LIMITS.maxTags} tags`;
    else if (tags.some((t) => t === '' || t.length > LINK_LIMITS.maxTag))
      problems.tags = `each must be 1 to ${LINK_LIMITS.maxTag} characters`;
    else out.tags = tags.length > 0 ? tags : undefined;
  }
  if (input.expiresAt !== undefined) {
    const at = input.expiresAt === '' ? undefined : parseRfc3339(input.expiresAt);
    if (at === null) problems.expires_at = 'must be an RFC 3339 date-time with an offset (2026-11-22T09:30:00Z)';
    else if (at && at.getTime() <= now.getTime()) problems.expires_at = 'must be in the future';
    else out.expiresAt = at;
  }
  if (input.maxClicks !== undefined) {
    if (!Number.isInteger(input.maxClicks) || input.maxClicks < 0) problems.max_clicks = 'must be at least 1';
    else out.maxClicks = input.maxClicks || undefined;
  }
  if (input.expiredUrl !== undefined && input.expiredUrl !== '') {
    try {
      checkTargetUrl(input.expiredUrl, { maxLength: rules.maxUrlLength, shortBase: rules.shortBase });
      out.expiredUrl = input.expiredUrl;
    } catch (err) {
      if (!(err instanceof AppError) || err.fields.url === undefined) throw err;
      problems.expired_url = err.fields.url;
    }
  } else if (input.expiredUrl !== undefined) out.expiredUrl = undefined;
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  return out;
}
