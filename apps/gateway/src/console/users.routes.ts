import { Type } from '@fastify/type-provider-typebox';
import { AppError } from '@feedback/kit-core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  changeUserKeepingAnOwner,
  createUser,
  EMAIL_TAKEN_CODE,
  getUser,
  LAST_OWNER_CODE,
  listUsers,
} from '../accounts/domain/users.use-cases.js';
import type { AdminContext } from './console.routes.js';
import { fill } from './console.i18n.js';
import { pageContext, scoped, sendHtml } from './console-page.js';
import { requireCsrf, requireSession } from './console-session.js';
import { chooseAccount, fieldErrorsOf, formField, managedScope } from './manage-scope.js';
import { userPage, usersPage, type NewUserForm, type Scope } from './users.views.js';

const PAGE_SIZE = 50;
type UsersPageOpts = Parameters<typeof usersPage>[2];
const Account = Type.Optional(Type.String({ minLength: 1, maxLength: 100 }));
const ListQuery = Type.Object({
  account: Account,
  page: Type.Optional(Type.String({ maxLength: 500 })),
  done: Type.Optional(Type.Union([Type.Literal('removed'), Type.Literal('saved')])),
  lang: Type.Optional(Type.String()),
});
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const UserQuery = Type.Object({ account: Account, lang: Type.Optional(Type.String()) });

/**
 * An account's users for its owners (and operators on a chosen account): the admin API's own use
 * cases (accounts/domain/users.use-cases.ts), plus the rule that an account keeps an owner.
 */
export const usersRoutes =
  (ctx: AdminContext): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));

    const scopeOf = (req: FastifyRequest, requested: string | undefined) => managedScope(ctx.accounts, req, requested);

    async function list(req: FastifyRequest, reply: FastifyReply, s: Scope, status: number, extra: Partial<UsersPageOpts>, pageToken = '') {
      const found = await listUsers(ctx.people, s.accountId, { pageSize: PAGE_SIZE, pageToken });
      return sendHtml(
        reply,
        status,
        usersPage(pageContext(req, s.viewer), s, {
          users: found.items,
          nextPageToken: found.nextPageToken,
          firstPage: !pageToken,
          timeZone: ctx.displayTimeZone,
          ...extra,
        }),
      );
    }

    app.get('/console/users', { schema: { hide: true, querystring: ListQuery } }, async (req, reply) => {
      const query = req.query as { account?: string; page?: string; done?: 'removed' | 'saved' };
      const s = await scopeOf(req, query.account);
      if (!s) return chooseAccount(reply);
      const w = pageContext(req).words;
      const notice = query.done === 'removed' ? w.us_removed : query.done === 'saved' ? w.us_saved : undefined;
      return list(req, reply, s, 200, { notice }, query.page ?? '');
    });

    app.post('/console/users', { schema: { hide: true }, preHandler: requireCsrf(ctx.publicOrigin) }, async (req, reply) => {
      const s = await scopeOf(req, formField(req.body, 'account'));
      if (!s) return chooseAccount(reply);
      const values = { email: formField(req.body, 'email'), name: formField(req.body, 'name'), role: formField(req.body, 'role') };
      // An empty password field: an invited user (an owner chose not to set one).
      const password = (req.body as Record<string, string[] | undefined>).password?.[0] || undefined;
      try {
        const { user, inviteUrl } = await createUser(ctx.people, s.accountId, { ...values, password });
        const w = pageContext(req).words;
        // The invite link is in this answer only (as the API's invite_url): never a redirect that would lose it.
        return await list(req, reply, s, 201, {
          invite: inviteUrl ? { name: user.name, url: inviteUrl } : undefined,
          notice: inviteUrl ? undefined : fill(w.us_createdNotice, { name: user.name }),
        });
      } catch (err) {
        const errors = fieldErrorsOf(err, ['invalid', 'conflict']);
        if (!errors) throw err;
        if (err instanceof AppError && err.code === EMAIL_TAKEN_CODE) errors.email = pageContext(req).words.us_emailTaken;
        const form: NewUserForm = { values, errors };
        return list(req, reply, s, err instanceof AppError && err.kind === 'conflict' ? 409 : 400, { form });
      }
    });

    app.get('/console/users/:id', { schema: { hide: true, params: Params, querystring: UserQuery } }, async (req, reply) => {
      const s = await scopeOf(req, (req.query as { account?: string }).account);
      if (!s) return chooseAccount(reply);
      // Another account's user: 404 (getUser checks the account).
      const user = await getUser(ctx.people, s.accountId, (req.params as { id: string }).id);
      return sendHtml(reply, 200, userPage(pageContext(req, s.viewer), s, { user }));
    });

    /** A change refused by the account-keeps-an-owner rule or bad input: the user's page again, saying why. */
    async function change(req: FastifyRequest, reply: FastifyReply, what: { remove: true } | { name: string; role: string }) {
      const s = await scopeOf(req, formField(req.body, 'account'));
      if (!s) return chooseAccount(reply);
      const id = (req.params as { id: string }).id;
      try {
        await changeUserKeepingAnOwner(ctx.people, s.accountId, id, what);
        return reply.redirect(scoped('/console/users', s.viewer, s.accountId, { done: 'remove' in what ? 'removed' : 'saved' }), 303);
      } catch (err) {
        const errors = fieldErrorsOf(err);
        const lastOwner = err instanceof AppError && err.code === LAST_OWNER_CODE;
        if (!errors && !lastOwner) throw err;
        const user = await getUser(ctx.people, s.accountId, id);
        const page = pageContext(req, s.viewer);
        return sendHtml(
          reply,
          lastOwner ? 409 : 400,
          userPage(page, s, { user, errors: errors ?? {}, message: lastOwner ? page.words.us_lastOwner : undefined }),
        );
      }
    }

    const post = { schema: { hide: true, params: Params }, preHandler: requireCsrf(ctx.publicOrigin) };
    app.post('/console/users/:id', post, (req, reply) =>
      change(req, reply, { name: formField(req.body, 'name'), role: formField(req.body, 'role') }),
    );
    app.post('/console/users/:id/remove', post, (req, reply) => change(req, reply, { remove: true }));
  };
