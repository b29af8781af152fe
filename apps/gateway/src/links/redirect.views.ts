import { domainToASCII } from 'node:url';

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
  const list = redirectHeaderList(fullUrl, status);
  const headers: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) headers[list[i]!] = list[i + 1]!;
  return headers;
}

/**
 * The same headers as a flat [name, value, ...] list, for `writeHead` on the redirect fast path:
 * Node writes a list without enumerating an object's keys, code it shares with fastify's replies,
 * where the many shapes of fastify's header objects made those loads slow for the fast path too.
 */
export function redirectHeaderList(fullUrl: string, status: number): string[] {
  const list = ['location', asciiLocation(fullUrl)];
  if (status !== 301 && status !== 308) list.push('cache-control', 'private, no-store');
  return list;
}

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const NON_ASCII = /[^\p{ASCII}]+/gu;
const AUTHORITY = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/s;

/**
 * The same target in the ASCII a Location header must carry (Node refuses other characters):
 * an IDN host becomes its xn-- form, other non-ASCII characters their UTF-8 percent-escapes,
 * exactly as a browser would send them. Everything ASCII, existing %XX escapes included,
 * is left byte for byte, so the stored URL is what the browser is sent to.
 */
export function asciiLocation(url: string): string {
  if (PRINTABLE_ASCII.test(url)) return url;
  const m = AUTHORITY.exec(url);
  if (!m) return escapeNonAscii(url);
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  return scheme + asciiAuthority(authority) + escapeNonAscii(rest);
}

function asciiAuthority(authority: string): string {
  if (PRINTABLE_ASCII.test(authority)) return authority;
  const port = /:\d*$/.exec(authority)?.[0] ?? '';
  const host = authority.slice(0, authority.length - port.length);
  const ascii = domainToASCII(host);
  return (ascii || escapeNonAscii(host)) + port;
}

const escapeNonAscii = (s: string) => s.replace(NON_ASCII, (chars) => encodeURIComponent(chars));

/**
 * What a link answers once it expired or used up its clicks, when it has no `expired_url`: 410,
 * a small page a person with a phone can read (like the 404 page), never cached, since a PATCH may
 * give the link a new lease.
 */
export const EXPIRED_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link expired</title></head>' +
  '<body><h1>Link expired</h1><p>This short link is no longer active. Ask whoever sent it for a new one.</p></body></html>\n';
