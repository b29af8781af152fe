import { errors, hasLoneSurrogate } from '@feedback/kit-core';

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const LEADING_JUNK = /^[\s\p{Cc}]+/u;
const HTTP_PREFIX = /^https?:\/\//i;
// Spaces, control characters and Unicode line/paragraph separators: a URL carrying them
// raw would be changed by every parser on the way, so we ask for them percent-encoded.
const UNSAFE_CHARS = /[\s\p{Cc}\u2028\u2029]/u;
const DANGEROUS_SCHEMES = new Set(['javascript', 'data', 'file', 'vbscript', 'blob', 'filesystem']);

interface TargetRules {
  maxLength: number;
  /** The service's own short domain: links to it would redirect to themselves. */
  shortBase: string;
}

const invalid = (reason: string) => errors.invalid({ url: reason });

/**
 * Checks a URL to shorten and answers its host name (ASCII form, for the loop check against
 * customer domains). The URL itself is never rewritten: IDNs and percent-escapes stay as given.
 */
export function checkTargetUrl(url: unknown, rules: TargetRules): { hostname: string } {
  if (typeof url !== 'string' || url === '') throw invalid('is required');
  if (url.length > rules.maxLength) throw invalid(`must be at most ${rules.maxLength} characters`);
  // Browsers skip leading spaces and control characters before the scheme; so do we, to name it.
  const scheme = SCHEME.exec(url.replace(LEADING_JUNK, ''))?.[1]?.toLowerCase();
  if (scheme && DANGEROUS_SCHEMES.has(scheme)) throw invalid(`the ${scheme}: scheme is not allowed; use http or https`);
  if (hasLoneSurrogate(url)) throw invalid('is not valid Unicode');
  if (UNSAFE_CHARS.test(url)) throw invalid('must not contain spaces or control characters (percent-encode them)');
  // Browsers read "https://evil.example\@bank.example/" as host evil.example, other parsers as
  // bank.example; the URL is stored as given, so a raw backslash is refused, never guessed at.
  if (url.includes('\\')) throw invalid('must not contain a backslash (percent-encode it as %5C)');
  if (!HTTP_PREFIX.test(url)) throw invalid('must be an absolute URL starting with http:// or https://');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('is not a valid URL');
  }
  if (parsed.hostname === '') throw invalid('must name a host');
  // "https://bank.example@evil.example" reads like the bank's address to a person.
  if (parsed.username || parsed.password) throw invalid('must not contain a user name or password');
  if (pointsAt(parsed, new URL(rules.shortBase))) throw invalid('must not point to the short link domain');
  return { hostname: parsed.hostname };
}

/**
 * Same host as the short domain; its port only matters when the short domain names one (local
 * set-ups). Every spelling of the loopback host (localhost, *.localhost, 127.0.0.0/8, 0.0.0.0,
 * [::1], [::ffff:127.0.0.1], …) counts as one host, and a trailing dot is ignored.
 */
function pointsAt(target: URL, short: URL): boolean {
  if (hostIdentity(target.hostname) !== hostIdentity(short.hostname)) return false;
  return short.port === '' || effectivePort(target) === effectivePort(short);
}

// WHATWG URL has already made IPv4 dotted-decimal (0x7f.1, 2130706433 → 127.0.0.1) and IPv6
// compressed lower case ([0:0:0:0:0:ffff:7f00:1] → [::ffff:7f00:1]).
const LOOPBACK_V4 = /^(127\.\d+\.\d+\.\d+|0\.0\.0\.0)$/;
const LOOPBACK_V6 = /^\[(::1?|::(ffff:)?7f[0-9a-f]{2}:[0-9a-f]{1,4}|::ffff:0:0)\]$/;

function hostIdentity(hostname: string): string {
  const host = hostname.replace(/\.+$/, '');
  const loopback = host === 'localhost' || host.endsWith('.localhost') || LOOPBACK_V4.test(host) || LOOPBACK_V6.test(host);
  return loopback ? '(loopback)' : host;
}

function effectivePort(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}
