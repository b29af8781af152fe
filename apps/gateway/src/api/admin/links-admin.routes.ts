import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import type { AdminLinksPort } from './admin.port.js';
import { CodeParams, DomainBody, DomainParams, type DomainSchema, type LinkStatsSchema } from './admin.schemas.js';
import { domainView, linkStatsView } from './admin.views.js';

const domainRef = Type.Unsafe<Static<typeof DomainSchema>>({ $ref: 'LinkDomain#' });

/** Admin routes of the link domain: a link's click count, and an account's customer domains. */
export const linksAdminRoutes =
  (deps: { shortener: AdminLinksPort; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.get(
      '/links/:code',
      {
        schema: {
          ...common,
          summary: 'Show a short link and its click count',
          operationId: 'getShortLink',
          description:
            'The full and short URL, the owning account and customer domain (each null when there is none), and the redirects counted so far. An unknown code answers 404.',
          params: CodeParams,
          response: { 200: Type.Unsafe<Static<typeof LinkStatsSchema>>({ $ref: 'ShortLinkStats#' }), ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        const { link, clicks } = await deps.shortener.getLinkStats({ code: req.params.code });
        return linkStatsView(link, clicks);
      },
    );

    app.post(
      '/accounts/:account_id/domains',
      {
        schema: {
          ...common,
          summary: 'Configure a customer domain for short links',
          operationId: 'addLinkDomain',
          description:
            "Point the domain (DNS) at the link listener, serving https on port 443. A domain belongs to one account (409 otherwise). The account's oldest domain is used for the links of its SMS; POST /shorten may name any configured domain.",
          params: AccountParams,
          body: DomainBody,
          response: { 201: domainRef, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        const { domain } = await deps.shortener.addDomain({ accountId: req.params.account_id, domain: req.body.domain });
        return reply.status(201).send(domainView(domain));
      },
    );

    app.get(
      '/accounts/:account_id/domains',
      {
        schema: {
          ...common,
          summary: "List an account's customer domains, oldest (default) first",
          operationId: 'listLinkDomains',
          description:
            'The oldest domain is the default one, used for the links made for the account (its SMS). An unknown account answers 404.',
          params: AccountParams,
          response: { 200: Type.Object({ data: Type.Array(domainRef) }), ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const { domains } = await deps.shortener.listDomains({ accountId: req.params.account_id });
        return { data: domains.map(domainView) };
      },
    );

    app.delete(
      '/accounts/:account_id/domains/:domain',
      {
        schema: {
          ...common,
          summary: 'Remove a customer domain (links already made on it keep resolving)',
          operationId: 'removeLinkDomain',
          description:
            'Answers 204; links already made on the domain keep redirecting, new ones can no longer name it. A domain the account does not have answers 404.',
          params: DomainParams,
          response: { 204: Type.Null(), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        await deps.shortener.removeDomain({ accountId: req.params.account_id, domain: req.params.domain });
        return reply.status(204).send(null);
      },
    );
  };
