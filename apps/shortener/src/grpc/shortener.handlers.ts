import { unary } from '@feedback/kit-grpc';
import type { ShortenerServiceServer } from '@feedback/proto/feedback/shortener/v1/shortener';
import { getLink, listLinks, updateLink, type CountedLink } from '../domain/account-links.use-cases.js';
import { countClickedLinks } from '../domain/clicked-links.use-cases.js';
import { addDomain, listDomains, removeDomain } from '../domain/domain.use-cases.js';
import type { Link } from '../domain/link.js';
import { getLinkAnalytics } from '../domain/link-analytics.use-cases.js';
import type { LinkHourRepository } from '../domain/link-hours.ports.js';
import { linkStats, resolve, shorten, shortenMany } from '../domain/link.use-cases.js';
import type { ShortenerDeps } from '../domain/ports.js';
import { analyticsMessage, analyticsQueryOf } from './link-analytics.messages.js';
import { addedDomainMessage, countedLinkMessage, domainMessage, linkMessage, linkOptionsOf } from './shortener.messages.js';

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. `analytics`: the link hour counters (GetLinkAnalytics). */
export function shortenerHandlers(deps: ShortenerDeps, analytics: { hours: LinkHourRepository }): ShortenerServiceServer {
  const link = (l: Link) => linkMessage(l, deps.settings);
  const counted = (c: CountedLink) => countedLinkMessage(c, deps.settings);
  return {
    shorten: unary(async (req) => ({
      link: link(await shorten(deps, { url: req.url, accountId: req.accountId, domain: req.domain, options: linkOptionsOf(req) })),
    })),
    shortenMany: unary(async (req) => ({ links: (await shortenMany(deps, { urls: req.urls, accountId: req.accountId })).map(link) })),
    resolve: unary(async (req) => ({ link: link(await resolve(deps, req.code, req.host)) })),
    getLinkStats: unary(async (req) => {
      const stats = await linkStats(deps, req.code);
      return { link: link(stats.link), clicks: stats.clicks };
    }),
    countClickedLinks: unary(async (req) => ({ clicked: await countClickedLinks(deps, req) })),
    getLinkAnalytics: unary(async (req) => analyticsMessage(await getLinkAnalytics({ ...deps, ...analytics }, analyticsQueryOf(req)))),
    addDomain: unary(async (req) => {
      const added = await addDomain(deps, req.accountId, req.domain);
      const all = await listDomains(deps, req.accountId);
      return { domain: addedDomainMessage(added, all) };
    }),
    listDomains: unary(async (req) => ({ domains: (await listDomains(deps, req.accountId)).map(domainMessage) })),
    removeDomain: unary(async (req) => {
      await removeDomain(deps, req.accountId, req.domain);
      return {};
    }),
    listLinks: unary(async (req) => {
      const page = await listLinks(deps, { ...req, createdAfter: req.createdAfter });
      return { links: page.items.map(counted), nextPageToken: page.nextPageToken };
    }),
    getLink: unary(async (req) => ({ link: counted(await getLink(deps, req.accountId, req.code)) })),
    updateLink: unary(async (req) => ({ link: counted(await updateLink(deps, req.accountId, req.code, linkOptionsOf(req))) })),
  };
}
