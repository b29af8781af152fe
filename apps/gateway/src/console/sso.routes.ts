import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { fill } from './console.i18n.js';
import type { ConsoleContext } from './console.routes.js';
import { pageContext, sendHtml } from './console-page.js';
import { messagePage } from './layout.views.js';
import { readCookies, sessionCookie, type CookieOptions } from './session-cookie.js';
import { signInPage } from './sign-in.views.js';
import type { ConsoleSso, SsoFlow } from './sso.port.js';

/**
 * The round trip's secrets live in the browser, not on a replica: any gateway may answer the
 * callback. HttpOnly, SameSite=Lax (the provider's redirect back is a top-level GET, so it is
 * sent), only to /console/sso, for 10 minutes, cleared at the callback (single use).
 */
const SSO_COOKIE = 'fs_sso';
const attributes = (opts: CookieOptions, maxAge: number) =>
  ['Path=/console/sso', 'HttpOnly', 'SameSite=Lax', ...(opts.secure ? ['Secure'] : []), `Max-Age=${maxAge}`].join('; ');
const flowCookie = (flow: SsoFlow, opts: CookieOptions) =>
  `${SSO_COOKIE}=${[flow.state, flow.nonce, flow.codeVerifier].join('.')}; ${attributes(opts, 600)}`;
const clearedFlowCookie = (opts: CookieOptions) => `${SSO_COOKIE}=; ${attributes(opts, 0)}`;

// openid-client's random values are base64url: anything else is no cookie this code set.
const B64URL = /^[A-Za-z0-9_-]{16,128}$/;
function flowOf(value: string | undefined): SsoFlow | null {
  const [state, nonce, codeVerifier, ...rest] = (value ?? '').split('.');
  if (rest.length || ![state, nonce, codeVerifier].every((v) => v !== undefined && B64URL.test(v))) return null;
  return { state: state!, nonce: nonce!, codeVerifier: codeVerifier! };
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

type Failure = 'failed' | 'unavailable' | 'notAllowed';
const FAILURES: Record<Failure, { status: number; words: 'ssoFailed' | 'ssoUnavailable' | 'ssoNotAllowed' }> = {
  failed: { status: 400, words: 'ssoFailed' },
  unavailable: { status: 503, words: 'ssoUnavailable' },
  notAllowed: { status: 403, words: 'ssoNotAllowed' },
};

/**
 * Single sign-on (docs/api.md "Console"): /console/sso/start sends the browser to the provider,
 * /console/sso/callback signs in the existing user whose verified e-mail the provider answers.
 * Every failure is the sign-in page with a message; none tells whether an e-mail is a user's.
 */
export const ssoRoutes =
  (ctx: ConsoleContext): FastifyPluginAsync =>
  async (app) => {
    const hide = { hide: true };
    const failure = (req: FastifyRequest, reply: FastifyReply, sso: ConsoleSso, kind: Failure) => {
      // The sign-in page's own links (languages) lead to the sign-in page, never back to the callback with its code.
      const page = { ...pageContext(req), here: '/console/sign-in' };
      const { status, words } = FAILURES[kind];
      return sendHtml(
        reply,
        status,
        signInPage(page, { sso: sso.displayName, message: fill(page.words[words], { name: sso.displayName }) }),
      );
    };

    app.get('/console/sso/start', { schema: hide }, async (req, reply) => {
      const sso = ctx.sso;
      if (!sso) return sendHtml(reply, 404, messagePage(pageContext(req), 'notFound'));
      const started = await sso.start();
      if (!started) return failure(req, reply, sso, 'unavailable');
      return reply.header('set-cookie', flowCookie(started.flow, ctx)).redirect(started.url, 303);
    });

    app.get('/console/sso/callback', { schema: hide }, async (req, reply) => {
      const sso = ctx.sso;
      if (!sso) return sendHtml(reply, 404, messagePage(pageContext(req), 'notFound'));
      const flow = flowOf(readCookies(req.headers.cookie)[SSO_COOKIE]);
      reply.header('set-cookie', clearedFlowCookie(ctx));
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const state = new URLSearchParams(query).get('state');
      // Another browser's answer, an old tab, a forged link: this browser did not start this round trip.
      if (!flow || !state || !sameText(state, flow.state)) {
        req.log.info({ reason: flow ? 'state' : 'no_flow' }, 'single sign-on refused');
        return failure(req, reply, sso, 'failed');
      }
      const outcome = await sso.finish(query, flow);
      if (!outcome.ok) return failure(req, reply, sso, outcome.reason === 'unavailable' ? 'unavailable' : 'failed');
      // One answer for both: the provider's person learns nothing about which e-mails are users'.
      if (!outcome.emailVerified || !outcome.email) {
        req.log.info({ reason: 'unverified' }, 'single sign-on refused');
        return failure(req, reply, sso, 'notAllowed');
      }
      const result = await ctx.sessions.signInVerified({ email: outcome.email, ip: req.ip });
      if (!result.ok) {
        req.log.info({ reason: 'no_user' }, 'single sign-on refused');
        return failure(req, reply, sso, 'notAllowed');
      }
      return reply.header('set-cookie', sessionCookie(result.cookie, ctx)).redirect('/console/', 303);
    });
  };
