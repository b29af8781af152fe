import { timingSafeEqual } from 'node:crypto';
import { isCrossSite } from '../api/surveys/same-origin.js';

type Headers = Record<string, string | string[] | undefined>;

/**
 * Whether a POST came from a page of this origin: the survey page's rule (Fetch metadata, else
 * Origin), and when a browser sent neither, its Referer must be of this origin too.
 */
export function isSameOriginPost(headers: Headers, publicOrigin?: string): boolean {
  if (isCrossSite(headers, publicOrigin)) return false;
  if (typeof headers['sec-fetch-site'] === 'string' || typeof headers.origin === 'string') return true;
  const referer = headers.referer;
  if (typeof referer !== 'string') return true;
  try {
    const url = new URL(referer);
    return url.host === headers.host || url.origin === publicOrigin;
  } catch {
    return false;
  }
}

/** The form's `_csrf` field against the session's token, in constant time. */
export function csrfMatches(sent: string | undefined, expected: string): boolean {
  if (!sent || !expected) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
