import { domainToASCII } from 'node:url';

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
