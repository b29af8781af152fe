import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses, pageRequest } from '../../http/common.schemas.js';
import type { AccountLinksPort } from './account-links.port.js';
import { AccountLinkAnswer, AccountLinksPageSchema, LinkCodeParams, LinksQuery, UpdateLinkBody } from './account-links.schemas.js';
import { accountLinksPageView, accountLinkView, updateLinkRequest } from './account-links.views.js';

export interface AccountLinksRoutesDeps {
  shortener: AccountLinksPort;
  auth: Authenticator;
}

/** The API token's account's short links (docs/api.md "An account's links"). */
export const accountLinksRoutes =
  (deps: AccountLinksRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const onRequest = [deps.auth(['api'])];
    const common = { tags: ['links'], security: [{ apiToken: [] }] };

    app.get(
      '/v1/links',
      {
        onRequest,
        schema: {
          ...common,
          summary: "List the account's short links, newest first",
          operationId: 'listLinks',
          description:
            "The links made with the account's API token on its domains and the links of its SMS, each with its clicks. Filters: `domain`, `tag`, `created_after`; a page at a time (`page_size`, then `page_token` = the previous `next_page_token`).",
          querystring: LinksQuery,
          response: { 200: AccountLinksPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) => {
        const q = req.query;
        const page = await deps.shortener.listLinks({
          accountId: principalOf(req).accountId,
          domain: q.domain ?? '',
          tag: q.tag ?? '',
          createdAfter: q.created_after ?? '',
          ...pageRequest(q),
        });
        return accountLinksPageView(page);
      },
    );

    app.get(
      '/v1/links/:code',
      {
        onRequest,
        schema: {
          ...common,
          summary: "One of the account's short links",
          operationId: 'getLink',
          description: "Another account's or an unknown code answers 404 (13002) naming `code`.",
          params: LinkCodeParams,
          response: { 200: AccountLinkAnswer, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => accountLinkView((await deps.shortener.getLink({ accountId: principalOf(req).accountId, code: req.params.code })).link),
    );

    app.patch(
      '/v1/links/:code',
      {
        onRequest,
        schema: {
          ...common,
          summary: "Change a short link's expiry, click limit, title or tags",
          operationId: 'updateLink',
          description:
            'Only the fields given change; `null` clears one. The target never changes: `url` (or any other field) answers 400 naming it. An `expires_at` already past answers 400. Every gateway replica applies a new expiry or limit within LINK_CACHE_TTL_MS (10 minutes by default). 404 like GET.',
          params: LinkCodeParams,
          body: UpdateLinkBody,
          response: { 200: AccountLinkAnswer, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const res = await deps.shortener.updateLink(updateLinkRequest(principalOf(req).accountId, req.params.code, req.body));
        return accountLinkView(res.link);
      },
    );
  };
