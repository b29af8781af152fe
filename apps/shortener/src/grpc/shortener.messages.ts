import type {
  Domain as DomainMessage,
  Link as LinkMessage,
  LinkWithClicks,
  ShortenRequest,
  UpdateLinkRequest,
} from '@feedback/proto/feedback/shortener/v1/shortener';
import type { CountedLink } from '../domain/account-links.use-cases.js';
import { shortUrlOf, type CustomerDomain, type Link, type LinkSettings } from '../domain/link.js';
import type { LinkOptionsInput } from '../domain/link-options.js';

/** proto <-> domain for the shortener: the handlers call use cases and these only. */
export function linkMessage(link: Link, settings: Pick<LinkSettings, 'shortBase'>): LinkMessage {
  return {
    code: link.code,
    fullUrl: link.fullUrl,
    shortUrl: shortUrlOf(link, settings),
    accountId: link.accountId ?? '',
    domain: link.domain ?? '',
    createdAt: link.createdAt.toISOString(),
    ...(link.title !== undefined && { title: link.title }),
    ...(link.tags !== undefined && { tags: { tags: link.tags } }),
    ...(link.expiresAt !== undefined && { expiresAt: link.expiresAt.toISOString() }),
    ...(link.maxClicks !== undefined && { maxClicks: link.maxClicks }),
    ...(link.expiredUrl !== undefined && { expiredUrl: link.expiredUrl }),
  };
}

export const countedLinkMessage = (c: CountedLink, settings: Pick<LinkSettings, 'shortBase'>): LinkWithClicks => ({
  link: linkMessage(c.link, settings),
  clicks: c.clicks,
});

/** The options a Shorten or UpdateLink request gives (absent fields: not given). */
export function linkOptionsOf(
  req: Pick<ShortenRequest | UpdateLinkRequest, 'title' | 'tags' | 'expiresAt' | 'maxClicks' | 'expiredUrl'>,
): LinkOptionsInput {
  return {
    ...(req.title !== undefined && { title: req.title }),
    ...(req.tags !== undefined && { tags: req.tags.tags }),
    ...(req.expiresAt !== undefined && { expiresAt: req.expiresAt }),
    ...(req.maxClicks !== undefined && { maxClicks: req.maxClicks }),
    ...(req.expiredUrl !== undefined && { expiredUrl: req.expiredUrl }),
  };
}

/** An account's domain at position `i` of its list: the first is its default. */
export const domainMessage = (d: CustomerDomain, i: number): DomainMessage => ({
  name: d.name,
  accountId: d.accountId,
  default: i === 0,
  createdAt: d.createdAt.toISOString(),
});

/** A domain just added, placed in the account's list (which says whether it is the default). */
export const addedDomainMessage = (added: CustomerDomain, all: CustomerDomain[]): DomainMessage =>
  domainMessage(
    added,
    all.findIndex((d) => d.name === added.name),
  );
