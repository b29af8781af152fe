import type { FastifyPluginAsync } from 'fastify';
import { changeOwnPassword } from '../accounts/domain/own-password.use-cases.js';
import { MIN_PASSWORD_LENGTH } from '../accounts/domain/password-rules.js';
import { fill } from './console.i18n.js';
import type { AdminContext } from './console.routes.js';
import { pageContext, sendHtml, viewerOf } from './console-page.js';
import { requireCsrf, requireSession } from './console-session.js';
import { clearedSessionCookie } from './session-cookie.js';
import { fieldErrorsOf } from './manage-scope.js';
import type { FormValues } from '../api/surveys/survey-form.js';
import { passwordPage } from './password.views.js';

// Passwords are taken as typed: never trimmed (a space may be part of one).
const raw = (body: unknown, name: string): string => (body as FormValues | undefined)?.[name]?.[0] ?? '';

/**
 * Every signed-in person's own password (any role, operators too). A change ends every session
 * of the person, this one included, on every replica: they sign in again with the new one.
 */
export const passwordRoutes =
  (ctx: Pick<AdminContext, 'sessions' | 'people' | 'publicOrigin' | 'secure'>): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));

    app.get('/console/password', { schema: { hide: true } }, async (req, reply) => {
      const viewer = viewerOf(req);
      return sendHtml(reply, 200, passwordPage(pageContext(req, viewer), viewer));
    });

    app.post('/console/password', { schema: { hide: true }, preHandler: requireCsrf(ctx.publicOrigin) }, async (req, reply) => {
      const viewer = viewerOf(req);
      const page = pageContext(req, viewer);
      const next = raw(req.body, 'new_password');
      if (next !== raw(req.body, 'new_password2'))
        return sendHtml(reply, 400, passwordPage(page, viewer, { new_password2: page.words.passwordsDiffer }));
      try {
        await changeOwnPassword(ctx.people, viewer.userId, raw(req.body, 'current_password'), next);
      } catch (err) {
        const errors = fieldErrorsOf(err);
        if (!errors) throw err;
        if (errors.current_password) errors.current_password = page.words.pw_wrongCurrent;
        if (errors.new_password) errors.new_password = fill(page.words.pw_weak, { n: MIN_PASSWORD_LENGTH });
        return sendHtml(reply, 400, passwordPage(page, viewer, errors));
      }
      return reply.header('set-cookie', clearedSessionCookie(ctx)).redirect('/console/sign-in?changed=1', 303);
    });
  };
