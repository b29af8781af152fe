type Headers = Record<string, string | string[] | undefined>;

/**
 * The link's token is the capability, so the one thing to refuse is a POST another site makes
 * the customer's browser send. Fetch metadata decides when the browser sends it; else Origin,
 * when present, must be this host (or the configured public origin behind a proxy).
 */
export function isCrossSite(headers: Headers, publicOrigin?: string): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = headers.origin;
  if (typeof origin !== 'string') return false;
  try {
    const url = new URL(origin);
    return !(url.host === headers.host || url.origin === publicOrigin);
  } catch {
    return true; // "null" and other opaque origins
  }
}
