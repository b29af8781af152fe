import { Type } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { FormValues } from '../api/surveys/survey-form.js';
import { fill } from './console.i18n.js';
import type { ConsoleContext } from './console.routes.js';
import { pageContext, sendHtml, sessionCookieOf } from './console-page.js';
import { refuseForeignPost, requireCsrf, requireSession } from './console-session.js';
import { inviteInvalidPage, invitePage, signInPage } from './sign-in.views.js';
import { clearedSessionCookie, sessionCookie } from './session-cookie.js';

const first = (form: FormValues | undefined, name: string) => form?.[name]?.[0] ?? '';
const InviteParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

/** Sign-in, sign-out and invitations: the only pages without a session. */
export const signInRoutes =
  (ctx: ConsoleContext): FastifyPluginAsync =>
  async (app) => {
    const hide = { hide: true };

    app.get('/console/sign-in', { schema: hide }, async (req, reply) => {
      const page = pageContext(req);
      // ?changed=1: the password change's redirect (password.routes.ts) says it worked.
      const notice = (req.query as { changed?: unknown } | undefined)?.changed === '1' ? page.words.pw_changed : undefined;
      return sendHtml(reply, 200, signInPage(page, { notice, sso: ctx.sso?.displayName }));
    });

    app.post('/console/sign-in', { schema: hide }, async (req, reply) => {
      // No session yet, so no CSRF token: the origin rule and SameSite keep other sites' forms out.
      if (refuseForeignPost(req, reply, ctx.publicOrigin)) return reply;
      const form = req.body as FormValues | undefined;
      const email = first(form, 'email').trim();
      const page = pageContext(req);
      const result = await ctx.sessions.signIn({ email, password: first(form, 'password'), ip: req.ip });
      if (result.ok) return reply.header('set-cookie', sessionCookie(result.cookie, ctx)).redirect('/console/', 303);
      if (result.reason === 'limited') {
        reply.header('retry-after', String(result.retryAfterSec));
        return sendHtml(
          reply,
          429,
          signInPage(page, { email, message: fill(page.words.limited, { n: result.retryAfterSec }), sso: ctx.sso?.displayName }),
        );
      }
      return sendHtml(reply, 400, signInPage(page, { email, message: page.words.invalidSignIn, sso: ctx.sso?.displayName }));
    });

    app.post(
      '/console/sign-out',
      { schema: hide, onRequest: requireSession(ctx.sessions), preHandler: requireCsrf(ctx.publicOrigin) },
      async (req, reply) => {
        const cookie = sessionCookieOf(req);
        if (cookie) await ctx.sessions.signOut(cookie);
        return reply.header('set-cookie', clearedSessionCookie(ctx)).redirect('/console/sign-in', 303);
      },
    );

    app.get('/console/invite/:token', { schema: { ...hide, params: InviteParams } }, async (req, reply) =>
      sendHtml(reply, 200, invitePage(pageContext(req), { action: inviteAction(req.url) })),
    );

    app.post('/console/invite/:token', { schema: { ...hide, params: InviteParams } }, async (req, reply) => {
      if (refuseForeignPost(req, reply, ctx.publicOrigin)) return reply;
      const { token } = req.params as { token: string };
      const form = req.body as FormValues | undefined;
      const page = pageContext(req);
      const password = first(form, 'password');
      if (password !== first(form, 'password2'))
        return sendHtml(reply, 400, invitePage(page, { action: inviteAction(req.url), message: page.words.passwordsDiffer }));
      const result = await ctx.sessions.acceptInvite(token, password);
      if (result.ok) return reply.header('set-cookie', sessionCookie(result.cookie, ctx)).redirect('/console/', 303);
      if (result.reason === 'weak_password')
        return sendHtml(reply, 400, invitePage(page, { action: inviteAction(req.url), message: page.words.weakPassword }));
      return sendHtml(reply, 404, inviteInvalidPage(page));
    });
  };

/** The form posts back to the invitation's own URL (its token), without the query. */
const inviteAction = (url: string) => url.split('?')[0]!;
