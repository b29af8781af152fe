import { errors, type Clock } from '@feedback/kit-core';
import { normalizeDomainName } from './domain-name.js';
import { LINK_LIMITS, type Link, type LinkSettings } from './link.js';
import type { ClickTallyRepository, DomainRepository, LinkRepository } from './ports.js';
import { checkTargetUrl } from './target-url.js';

export interface LinkDeps {
  links: LinkRepository;
  domains: DomainRepository;
  tallies: Pick<ClickTallyRepository, 'get'>;
  clock: Clock;
  newCode: () => string;
  settings: LinkSettings;
}

export interface ShortenInput {
  url: string;
  /** Known only for calls from other services; empty for the public API. */
  accountId?: string;
  domain?: string;
}

export async function shorten(deps: LinkDeps, input: ShortenInput): Promise<Link> {
  const { hostname } = checkTargetUrl(input.url, { maxLength: deps.settings.maxUrlLength, shortBase: deps.settings.shortBase });
  const accountId = input.accountId || null;
  const domain = await pickDomain(deps, accountId, input.domain);
  // A link to a customer domain is a link to ourselves, however it is spelled.
  if (await deps.domains.findByName(hostname)) throw errors.invalid({ url: 'must not point to a short link domain' });

  for (let attempt = 0; attempt < LINK_LIMITS.codeAttempts; attempt++) {
    const link: Link = { code: deps.newCode(), fullUrl: input.url, accountId, domain, createdAt: deps.clock.now() };
    if (await deps.links.insertIfNew(link)) return link;
  }
  throw errors.internal('no free short code after several attempts');
}

/** The named domain if it is configured (for this account, when there is one); else the account's default. */
async function pickDomain(deps: LinkDeps, accountId: string | null, requested: string | undefined): Promise<string | null> {
  if (requested) {
    const name = normalizeDomainName(requested);
    const found = await deps.domains.findByName(name);
    if (!found || (accountId && found.accountId !== accountId)) {
      throw errors.invalid({ domain: 'is not a configured short link domain' });
    }
    return found.name;
  }
  if (!accountId) return null;
  const [oldest] = await deps.domains.listByAccount(accountId);
  return oldest?.name ?? null;
}

/** Unknown and malformed codes answer the same not-found, and malformed ones never reach storage. */
export async function resolve(deps: Pick<LinkDeps, 'links'>, code: string): Promise<Link> {
  const link = LINK_LIMITS.codePattern.test(code) ? await deps.links.findByCode(code) : null;
  if (!link) throw errors.notFound('code', code);
  return link;
}

export async function linkStats(deps: Pick<LinkDeps, 'links' | 'tallies'>, code: string): Promise<{ link: Link; clicks: number }> {
  const link = await resolve(deps, code);
  const tally = await deps.tallies.get(code);
  return { link, clicks: tally?.count ?? 0 };
}
