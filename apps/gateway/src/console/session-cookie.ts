/**
 * The console's two cookies: the session (`fs_session`, opaque: ConsoleSessions made it) and the
 * chosen language (`lang`). Both are ours and both are plain tokens, so reading them is a split on
 * `;` rather than a general cookie parser (quoted values and attributes never reach us).
 */
export const SESSION_COOKIE = 'fs_session';
export const LANG_COOKIE = 'lang';

/** The cookies a request carries, by name (the first of a repeated name wins, as browsers send the most specific first). */
export function readCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!(name in cookies)) cookies[name] = part.slice(eq + 1).trim();
  }
  return cookies;
}

export interface CookieOptions {
  /** PUBLIC_BASE_URL is https: the cookie is never sent over plain HTTP. */
  secure: boolean;
}

const attributes = (opts: CookieOptions, extra: string[] = []) =>
  ['Path=/console', 'HttpOnly', 'SameSite=Lax', ...(opts.secure ? ['Secure'] : []), ...extra].join('; ');

/** The session cookie: a browser-session cookie (the session's own expiry is the server's). */
export const sessionCookie = (value: string, opts: CookieOptions) => `${SESSION_COOKIE}=${value}; ${attributes(opts)}`;

/** Removes the session cookie (sign-out). */
export const clearedSessionCookie = (opts: CookieOptions) => `${SESSION_COOKIE}=; ${attributes(opts, ['Max-Age=0'])}`;

/** The language a person picked, for a year. */
export const langCookie = (lang: string, opts: CookieOptions) => `${LANG_COOKIE}=${lang}; ${attributes(opts, ['Max-Age=31536000'])}`;
