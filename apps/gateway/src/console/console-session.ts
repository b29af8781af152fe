import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleSessions } from '../accounts/domain/people.js';
import type { FormValues } from '../api/surveys/survey-form.js';
import { csrfMatches, isSameOriginPost } from './csrf.js';
import { pageContext, sendHtml, sessionCookieOf, setViewer, viewerOf } from './console-page.js';
import { messagePage } from './layout.views.js';

/** onRequest of every page but sign-in and invite: no valid session → the sign-in page (303). */
export const requireSession = (sessions: ConsoleSessions) => async (req: FastifyRequest, reply: FastifyReply) => {
  const cookie = sessionCookieOf(req);
  const viewer = cookie ? await sessions.viewer(cookie) : null;
  if (!viewer) return reply.redirect('/console/sign-in', 303);
  setViewer(req, viewer);
};

/** A POST from another site, or without the session's CSRF token: 403. */
export const refuseForeignPost = (req: FastifyRequest, reply: FastifyReply, publicOrigin?: string): boolean => {
  if (isSameOriginPost(req.headers, publicOrigin)) return false;
  void sendHtml(reply, 403, messagePage(pageContext(req), 'forbidden'));
  return true;
};

/** preHandler of every signed-in POST: same origin and the form's `_csrf`, else 403. */
export const requireCsrf = (publicOrigin?: string) => async (req: FastifyRequest, reply: FastifyReply) => {
  if (refuseForeignPost(req, reply, publicOrigin)) return reply;
  const viewer = viewerOf(req);
  const sent = (req.body as FormValues | undefined)?._csrf?.[0];
  if (!csrfMatches(sent, viewer.csrfToken)) return sendHtml(reply, 403, messagePage(pageContext(req, viewer), 'forbidden'));
};
