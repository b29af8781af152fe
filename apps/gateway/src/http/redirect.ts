import { asciiLocation } from './location-header.js';

/** The shortener's code alphabet; anything else is a 404 without a lookup (favicon.ico, probes). */
const CODE_CHARS = '[A-Za-z0-9]{4,32}';
export const SHORT_CODE = new RegExp(`^${CODE_CHARS}$`);
/** A request path that is a code, with or without a query string. */
export const SHORT_CODE_PATH = new RegExp(`^/(${CODE_CHARS})(?:\\?.*)?$`, 's');

/**
 * The headers of a redirect to `fullUrl`, the same whichever path answers it: Location in
 * the ASCII a header must carry, and no caching for temporary redirects (each tap must reach
 * us to be counted).
 */
export function redirectHeaders(fullUrl: string, status: number): Record<string, string> {
  const headers: Record<string, string> = { location: asciiLocation(fullUrl) };
  if (status !== 301 && status !== 308) headers['cache-control'] = 'private, no-store';
  return headers;
}
