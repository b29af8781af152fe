import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role, Viewer } from '../accounts/domain/people.js';
import { CONSOLE_CSP } from './console.css.js';
import { pickConsoleLang, wordsFor, type ConsoleLang } from './console.i18n.js';
import type { PageContext } from './layout.views.js';
import { LANG_COOKIE, readCookies, SESSION_COOKIE } from './session-cookie.js';

/** Who made this request, once the session hook found them (console-session.ts). */
const viewers = new WeakMap<FastifyRequest, Viewer>();
export const setViewer = (req: FastifyRequest, viewer: Viewer) => viewers.set(req, viewer);
export function viewerOf(req: FastifyRequest): Viewer {
  const viewer = viewers.get(req);
  if (!viewer) throw new Error('a console route without the session hook');
  return viewer;
}

export const sessionCookieOf = (req: FastifyRequest) => readCookies(req.headers.cookie)[SESSION_COOKIE];

const queryOf = (req: FastifyRequest) => (req.query ?? {}) as Record<string, string | undefined>;

/** ?lang=, the `lang` cookie, Accept-Language, English. */
export const langOf = (req: FastifyRequest): ConsoleLang =>
  pickConsoleLang(queryOf(req).lang, readCookies(req.headers.cookie)[LANG_COOKIE], req.headers['accept-language']);

/** The request's URL without `lang` (the language links put theirs). */
function hereOf(req: FastifyRequest): string {
  const url = new URL(req.url, 'http://x');
  url.searchParams.delete('lang');
  return `${url.pathname}${url.search}`;
}

export function pageContext(req: FastifyRequest, viewer?: Viewer): PageContext {
  const lang = langOf(req);
  return { lang, words: wordsFor(lang), viewer, here: hereOf(req) };
}

/** Every console page: its CSP, never cached, never framed, never sniffed. */
export function sendHtml(reply: FastifyReply, status: number, body: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .send(body);
}

/** Roles that may change things (cancel a sharing); a viewer only reads. */
export const canAct = (role: Role) => role === 'owner' || role === 'member' || role === 'operator';

/** A console path with the operator's chosen account carried along (account users never need it). */
export function scoped(path: string, viewer: Viewer, accountId: string, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  if (viewer.accountId === null) params.set('account', accountId);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== '') params.set(k, v);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
