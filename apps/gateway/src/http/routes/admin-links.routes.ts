import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoWithOffset } from '@feedback/kit-core';
import type {
  AddDomainRequest,
  AddDomainResponse,
  Domain,
  GetLinkStatsRequest,
  GetLinkStatsResponse,
  ListDomainsRequest,
  ListDomainsResponse,
  RemoveDomainRequest,
  RemoveDomainResponse,
} from '@feedback/proto/feedback/shortener/v1/shortener';
import type { FastifyRequest } from 'fastify';
import { requireAccount } from '../../domain/admin.use-cases.js';
import type { AccountRepository } from '../../domain/ports.js';
import { AccountParams } from '../schemas/admin.schemas.js';
import { errorResponses } from '../schemas/common.schemas.js';
import { CodeParams, DomainBody, DomainParams, DomainSchema, LinkStatsSchema } from '../schemas/link.schemas.js';

export interface AdminLinksPort {
  getLinkStats(req: GetLinkStatsRequest): Promise<GetLinkStatsResponse>;
  addDomain(req: AddDomainRequest): Promise<AddDomainResponse>;
  listDomains(req: ListDomainsRequest): Promise<ListDomainsResponse>;
  removeDomain(req: RemoveDomainRequest): Promise<RemoveDomainResponse>;
}

const iso = (s: string) => isoWithOffset(new Date(s));
const domainView = (d: Domain | undefined) => {
  if (!d) throw new Error('shortener answered without a domain');
  return { domain: d.name, default: d.default, created_at: iso(d.createdAt) };
};

/** Admin routes of the link domain: a link's click count, and an account's customer domains. */
export const adminLinksRoutes =
  (deps: {
    shortener: AdminLinksPort;
    accounts: AccountRepository;
    adminAuth: (req: FastifyRequest) => Promise<void>;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addHook('onRequest', deps.adminAuth);
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.get(
      '/links/:code',
      {
        schema: { ...common, summary: 'Show a short link and its click count', params: CodeParams, response: { 200: LinkStatsSchema, ...errorResponses(401, 404) } },
      },
      async (req) => {
        const { link, clicks } = await deps.shortener.getLinkStats({ code: req.params.code });
        if (!link) throw new Error('shortener answered without a link');
        return {
          id: link.code,
          full_url: link.fullUrl,
          short_url: link.shortUrl,
          account_id: link.accountId || null,
          domain: link.domain || null,
          created_at: iso(link.createdAt),
          clicks,
        };
      },
    );

    app.post(
      '/accounts/:account_id/domains',
      {
        schema: {
          ...common,
          summary: 'Configure a customer domain for short links',
          description:
            'Point the domain (DNS) at the link listener, serving https on port 443. A domain belongs to one account (409 otherwise). The account\'s oldest domain is used for the links of its SMS; POST /shorten may name any configured domain.',
          params: AccountParams,
          body: DomainBody,
          response: { 201: DomainSchema, ...errorResponses(400, 401, 404, 409) },
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
          summary: 'List an account\'s customer domains, oldest (default) first',
          params: AccountParams,
          response: { 200: Type.Object({ data: Type.Array(DomainSchema) }), ...errorResponses(401, 404) },
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
