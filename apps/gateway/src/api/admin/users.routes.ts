import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PeopleDeps } from '../../accounts/domain/people.ports.js';
import {
  createOperator,
  createUser,
  deleteUser,
  getUser,
  listOperators,
  listUsers,
  updateUser,
} from '../../accounts/domain/users.use-cases.js';
import { AccountParams, errorResponses, pageRequest } from '../../http/common.schemas.js';
import { NewOperatorBody, NewUserBody, UserParams, UserPatchBody, UsersPageQuery, UsersPageSchema } from './users.schemas.js';
import { createdUserView, usersPageView, userView } from './users.views.js';

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });
const PAGING = 'Newest first, a page at a time (`page_size`, then `page_token` = the previous `next_page_token`, null on the last page).';

/** The console's people (docs/api.md "Users and operators"): an account's users, and the deployment's operators. */
export const usersRoutes =
  (deps: PeopleDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.post(
      '/accounts/:account_id/users',
      {
        schema: {
          ...common,
          summary: 'Create a user of the account',
          operationId: 'createUser',
          description:
            'A person who signs in to the console with a role in the account. Without `password` the answer has `invite_url`, a single-use link valid 7 days to set one. An e-mail already in use in the deployment (any case) answers 409 / 13060 naming `email`.',
          params: AccountParams,
          body: NewUserBody,
          response: { 201: ref('CreatedUser'), ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (req, reply) => {
        const { user, inviteUrl } = await createUser(deps, req.params.account_id, req.body);
        return reply.status(201).send(createdUserView(user, inviteUrl));
      },
    );

    app.get(
      '/accounts/:account_id/users',
      {
        schema: {
          ...common,
          summary: "List the account's users",
          operationId: 'listUsers',
          description: `${PAGING} An unknown account answers 404.`,
          params: AccountParams,
          querystring: UsersPageQuery,
          response: { 200: UsersPageSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => usersPageView(await listUsers(deps, req.params.account_id, pageRequest(req.query))),
    );

    app.get(
      '/accounts/:account_id/users/:user_id',
      {
        schema: {
          ...common,
          summary: 'Show a user',
          operationId: 'getUser',
          description: "Another account's user, or an unknown one, answers 404 naming `user_id`.",
          params: UserParams,
          response: { 200: ref('User'), ...errorResponses(401, 404) },
        },
      },
      async (req) => userView(await getUser(deps, req.params.account_id, req.params.user_id)),
    );

    app.patch(
      '/accounts/:account_id/users/:user_id',
      {
        schema: {
          ...common,
          summary: "Change a user's role or name",
          operationId: 'updateUser',
          description: "A new role holds from the user's next request. Another account's user answers 404.",
          params: UserParams,
          body: UserPatchBody,
          response: { 200: ref('User'), ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => userView(await updateUser(deps, req.params.account_id, req.params.user_id, req.body)),
    );

    app.delete(
      '/accounts/:account_id/users/:user_id',
      {
        schema: {
          ...common,
          summary: 'Remove a user',
          operationId: 'deleteUser',
          description:
            "Answers 204; the user's console sessions end at once, on every gateway replica. Another account's user answers 404.",
          params: UserParams,
          response: { 204: Type.Null(), ...errorResponses(401, 404) },
        },
      },
      async (req, reply) => {
        await deleteUser(deps, req.params.account_id, req.params.user_id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/operators',
      {
        schema: {
          ...common,
          summary: 'Create an operator',
          operationId: 'createOperator',
          description:
            "A person who runs the deployment: the console's every account. As a user's create, without `role`; 409 / 13060 for an e-mail already in use.",
          body: NewOperatorBody,
          response: { 201: ref('CreatedUser'), ...errorResponses(400, 401, 409) },
        },
      },
      async (req, reply) => {
        const { user, inviteUrl } = await createOperator(deps, req.body);
        return reply.status(201).send(createdUserView(user, inviteUrl));
      },
    );

    app.get(
      '/operators',
      {
        schema: {
          ...common,
          summary: 'List the operators',
          operationId: 'listOperators',
          description: PAGING,
          querystring: UsersPageQuery,
          response: { 200: UsersPageSchema, ...errorResponses(400, 401) },
        },
      },
      async (req) => usersPageView(await listOperators(deps, pageRequest(req.query))),
    );
  };
