import { errors, pageQueryOf, type Page, type PageRule } from '@feedback/kit-core';
import { normalizeDomainName } from './domain-name.js';
import { LINK_LIMITS, ownDomainName, type Link } from './link.js';
import { checkExpiredUrlHost, checkLinkOptions, type LinkOptionsInput } from './link-options.js';
import type { LinkFilter, ShortenerDeps } from './ports.js';

type Deps = Pick<ShortenerDeps, 'links' | 'domains' | 'tallies' | 'clock' | 'settings'>;

/** A link with its clicks, as the account's lists show it. */
export interface CountedLink {
  link: Link;
  clicks: number;
}

export const LINKS_PAGE: PageRule = { list: 'links', default: 50, max: 200 };

export interface ListLinksQuery {
  accountId: string;
  domain?: string;
  tag?: string;
  createdAfter?: string;
  pageSize?: number;
  pageToken?: string;
}

/** An ISO 8601 instant with an offset, or a date alone (its midnight UTC), as the other lists' created_after. */
const INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

function parseCreatedAfter(text: string): Date {
  const at = INSTANT.test(text) ? new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw errors.invalid({
      created_after: 'must be an ISO 8601 date (2026-11-22) or date-time with an offset (2026-11-22T09:30:00+03:00)',
    });
  }
  return at;
}

/**
 * An account's links (its domains' links and its SMS links: every link made with its account id),
 * newest first, with their clicks (one read of the tallies per page).
 */
export async function listLinks(deps: Deps, q: ListLinksQuery): Promise<Page<CountedLink>> {
  if (!q.accountId) throw errors.invalid({ account_id: 'is required' });
  const filter: LinkFilter = { accountId: q.accountId };
  if (q.domain) {
    const name = normalizeDomainName(q.domain);
    // The service's own short domain names the links made without a customer domain.
    filter.domain = name === ownDomainName(deps.settings) ? null : name;
  }
  if (q.tag) filter.tag = q.tag;
  if (q.createdAfter) filter.createdAfter = parseCreatedAfter(q.createdAfter);
  const page = await deps.links.list(filter, pageQueryOf(q, LINKS_PAGE));
  return { items: await withClicks(deps, page.items), nextPageToken: page.nextPageToken };
}

/** One of the account's links; another account's, like an unknown code, is NOT_FOUND naming `code`. */
export async function getLink(deps: Deps, accountId: string, code: string): Promise<CountedLink> {
  const link = await ownLink(deps, accountId, code);
  const [counted] = await withClicks(deps, [link]);
  return counted!;
}

/**
 * Changes what the account says about a link, never where it leads: the target of a link already
 * sent stays what its recipients were promised. An expiry already past is refused as at Shorten.
 */
export async function updateLink(deps: Deps, accountId: string, code: string, changes: LinkOptionsInput): Promise<CountedLink> {
  await ownLink(deps, accountId, code);
  const options = checkLinkOptions(changes, deps.settings, deps.clock.now());
  await checkExpiredUrlHost(options, async (host) => (await deps.domains.findByName(host)) !== null);
  const updated = await deps.links.update(code, options);
  if (!updated || updated.accountId !== accountId) throw errors.notFound('code', code);
  const [counted] = await withClicks(deps, [updated]);
  return counted!;
}

async function ownLink(deps: Deps, accountId: string, code: string): Promise<Link> {
  if (!accountId) throw errors.invalid({ account_id: 'is required' });
  const link = LINK_LIMITS.codePattern.test(code) ? await deps.links.findByCode(code) : null;
  if (!link || link.accountId !== accountId) throw errors.notFound('code', code);
  return link;
}

async function withClicks(deps: Pick<Deps, 'tallies'>, links: Link[]): Promise<CountedLink[]> {
  const counts = await deps.tallies.countsOf(links.map((l) => l.code));
  return links.map((link) => ({ link, clicks: counts.get(link.code) ?? 0 }));
}
