import { unary } from '@feedback/kit-grpc';
import type { Domain as DomainMessage, Link as LinkMessage, ShortenerServiceServer } from '@feedback/proto/feedback/shortener/v1/shortener';
import { countClickedLinks } from '../domain/clicked-links.use-cases.js';
import { addDomain, listDomains, removeDomain } from '../domain/domain.use-cases.js';
import { shortUrlOf, type CustomerDomain, type Link, type LinkSettings } from '../domain/link.js';
import { linkStats, resolve, shorten, shortenMany } from '../domain/link.use-cases.js';
import type { ShortenerDeps } from '../domain/ports.js';

function toLinkMessage(link: Link, settings: Pick<LinkSettings, 'shortBase'>): LinkMessage {
  return {
    code: link.code,
    fullUrl: link.fullUrl,
    shortUrl: shortUrlOf(link, settings),
    accountId: link.accountId ?? '',
    domain: link.domain ?? '',
    createdAt: link.createdAt.toISOString(),
  };
}

const toDomainMessage = (d: CustomerDomain, i: number): DomainMessage => ({
  name: d.name,
  accountId: d.accountId,
  default: i === 0,
  createdAt: d.createdAt.toISOString(),
});

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. */
export function shortenerHandlers(deps: ShortenerDeps): ShortenerServiceServer {
  const link = (l: Link) => toLinkMessage(l, deps.settings);
  return {
    shorten: unary(async (req) => ({ link: link(await shorten(deps, { url: req.url, accountId: req.accountId, domain: req.domain })) })),
    shortenMany: unary(async (req) => ({ links: (await shortenMany(deps, { urls: req.urls, accountId: req.accountId })).map(link) })),
    resolve: unary(async (req) => ({ link: link(await resolve(deps, req.code, req.host)) })),
    getLinkStats: unary(async (req) => {
      const stats = await linkStats(deps, req.code);
      return { link: link(stats.link), clicks: stats.clicks };
    }),
    countClickedLinks: unary(async (req) => ({ clicked: await countClickedLinks(deps, req) })),
    addDomain: unary(async (req) => {
      const added = await addDomain(deps, req.accountId, req.domain);
      const all = await listDomains(deps, req.accountId);
      return {
        domain: toDomainMessage(
          added,
          all.findIndex((d) => d.name === added.name),
        ),
      };
    }),
    listDomains: unary(async (req) => ({ domains: (await listDomains(deps, req.accountId)).map(toDomainMessage) })),
    removeDomain: unary(async (req) => {
      await removeDomain(deps, req.accountId, req.domain);
      return {};
    }),
  };
}
