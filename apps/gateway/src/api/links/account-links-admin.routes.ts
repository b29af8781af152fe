import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses, pageRequest } from '../../http/common.schemas.js';
import type { AccountLinksPort } from './account-links.port.js';
import { AccountLinkAnswer, AccountLinksPageSchema, LinkCodeParams, LinksQuery, UpdateLinkBody } from './account-links.schemas.js';
import { accountLinksPageView, accountLinkView, updateLinkRequest } from './account-links.views.js';

/** An operator's view of an account's short links (feedbackctl links list): as the account's API token sees them. */
export const accountLinksAdminRoutes =
  (deps: { shortener: AccountLinksPort; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };
    const withCode = Type.Object({ ...AccountParams.properties, ...LinkCodeParams.properties });

    app.get(
      '/accounts/:account_id/links',
      {
        schema: {
          ...common,
          summary: "An account's short links, newest first",
          operationId: 'listAccountLinks',
          description: 'As GET /v1/links with the account’s API token. An unknown account answers 404.',
          params: AccountParams,
          querystring: LinksQuery,
          response: { 200: AccountLinksPageSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const q = req.query;
        const page = await deps.shortener.listLinks({
          accountId: req.params.account_id,
          domain: q.domain ?? '',
          tag: q.tag ?? '',
          createdAfter: q.created_after ?? '',
          ...pageRequest(q),
        });
        return accountLinksPageView(page);
      },
    );

    app.get(
      '/accounts/:account_id/links/:code',
      {
        schema: {
          ...common,
          summary: "One of an account's short links",
          operationId: 'getAccountLink',
          description: 'As GET /v1/links/{code} with the account’s API token.',
          params: withCode,
          response: { 200: AccountLinkAnswer, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        return accountLinkView((await deps.shortener.getLink({ accountId: req.params.account_id, code: req.params.code })).link);
      },
    );

    app.patch(
      '/accounts/:account_id/links/:code',
      {
        schema: {
          ...common,
          summary: "Change one of an account's short links",
          operationId: 'updateAccountLink',
          description: 'As PATCH /v1/links/{code} with the account’s API token: never the target.',
          params: withCode,
          body: UpdateLinkBody,
          response: { 200: AccountLinkAnswer, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const res = await deps.shortener.updateLink(updateLinkRequest(req.params.account_id, req.params.code, req.body));
        return accountLinkView(res.link);
      },
    );
  };
