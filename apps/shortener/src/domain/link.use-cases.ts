import { AppError, errors } from '@feedback/kit-core';
import { normalizeDomainName } from './domain-name.js';
import { LINK_LIMITS, ownDomainName, type Link } from './link.js';
import { checkExpiredUrlHost, checkLinkOptions, type LinkOptions, type LinkOptionsInput } from './link-options.js';
import type { ShortenerDeps } from './ports.js';
import { checkTargetUrl } from './target-url.js';

type Deps = Pick<ShortenerDeps, 'links' | 'domains' | 'tallies' | 'clock' | 'newCode' | 'settings'>;

interface ShortenInput {
  url: string;
  /**
   * Who is calling: another service acting for an account, or the gateway for the API token that
   * POST /shorten carried; empty for an anonymous POST /shorten.
   */
  accountId?: string;
  domain?: string;
  /** Title, tags, expiry and click limit (link-options.ts). */
  options?: LinkOptionsInput;
}

export async function shorten(deps: Deps, input: ShortenInput): Promise<Link> {
  const { hostname } = checkTargetUrl(input.url, { maxLength: deps.settings.maxUrlLength, shortBase: deps.settings.shortBase });
  const options = withoutUnset(checkLinkOptions(input.options ?? {}, deps.settings, deps.clock.now()));
  const accountId = input.accountId || null;
  const domain = await pickDomain(deps, accountId, input.domain);
  // A link to a customer domain is a link to ourselves, however it is spelled.
  if (await deps.domains.findByName(hostname)) throw errors.invalid({ url: 'must not point to a short link domain' });
  await checkExpiredUrlHost(options, async (host) => (await deps.domains.findByName(host)) !== null);

  for (let attempt = 0; attempt < LINK_LIMITS.codeAttempts; attempt++) {
    const link: Link = { code: deps.newCode(), fullUrl: input.url, accountId, domain, createdAt: deps.clock.now(), ...options };
    if (await deps.links.insertIfNew(link)) return link;
  }
  throw errors.internal('no free short code after several attempts');
}

/** The options that are set: a new link stores no empty fields. */
function withoutUnset(options: LinkOptions): LinkOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as LinkOptions;
}

interface ShortenManyInput {
  urls: string[];
  /** Required: a batch is one account's (messaging's SMS of one Kafka batch). */
  accountId: string;
}

/**
 * Shorten for many URLs of one account, on its default domain, stored with one write (the
 * database pays per round trip, not per document). All or nothing: a refused URL is named by
 * its position, `urls[i]`, before anything is stored. The links keep the order of the URLs; a
 * URL given twice gets two links.
 */
export async function shortenMany(deps: Deps, input: ShortenManyInput): Promise<Link[]> {
  const { urls, accountId } = input;
  if (!accountId) throw errors.invalid({ account_id: 'is required' });
  const max = LINK_LIMITS.maxBatchUrls;
  if (urls.length === 0 || urls.length > max) throw errors.invalid({ urls: `must hold 1 to ${max} URLs` });
  await checkTargets(deps, urls);
  const domain = await pickDomain(deps, accountId, undefined);
  const createdAt = deps.clock.now();
  const links = urls.map((fullUrl): Link => ({ code: deps.newCode(), fullUrl, accountId, domain, createdAt }));

  // Only the links whose code was taken go round again, with new codes.
  let pending = links.map((_, i) => i);
  for (let attempt = 1; ; attempt++) {
    const stored = await deps.links.insertManyIfNew(pending.map((i) => links[i]!));
    pending = pending.filter((_, k) => !stored[k]);
    if (pending.length === 0) return links;
    if (attempt === LINK_LIMITS.codeAttempts) throw errors.internal('no free short code after several attempts');
    for (const i of pending) links[i] = { ...links[i]!, code: deps.newCode() };
  }
}

/** Each URL as shorten checks it; each distinct host is looked up once among the customer domains. */
async function checkTargets(deps: Deps, urls: string[]): Promise<void> {
  const rules = { maxLength: deps.settings.maxUrlLength, shortBase: deps.settings.shortBase };
  const hosts = urls.map((url, i) => {
    try {
      return checkTargetUrl(url, rules).hostname;
    } catch (err) {
      throw err instanceof AppError && err.fields.url !== undefined ? errors.invalid({ [`urls[${i}]`]: err.fields.url }) : err;
    }
  });
  const distinct = [...new Set(hosts)];
  const found = await Promise.all(distinct.map((host) => deps.domains.findByName(host)));
  const ours = new Set(distinct.filter((_, k) => found[k]));
  const looping = hosts.findIndex((host) => ours.has(host));
  if (looping >= 0) throw errors.invalid({ [`urls[${looping}]`]: 'must not point to a short link domain' });
}

/**
 * The named domain, if the calling account owns it; else the account's default. A customer domain
 * carries its owner's brand, so only its owner makes links on it, whoever calls (the gateway
 * checks the caller's token, other services pass the account they act for): another account's
 * domain, or one named without an account, is PERMISSION_DENIED. The service's own short domain
 * named is the same as none.
 */
async function pickDomain(deps: Deps, accountId: string | null, requested: string | undefined): Promise<string | null> {
  if (requested) {
    const name = normalizeDomainName(requested);
    if (name === ownDomainName(deps.settings)) return null;
    const found = await deps.domains.findByName(name);
    if (!found) throw errors.invalid({ domain: 'is not a configured short link domain' });
    if (found.accountId !== accountId) throw errors.permissionDenied();
    return found.name;
  }
  if (!accountId) return null;
  const [oldest] = await deps.domains.listByAccount(accountId);
  return oldest?.name ?? null;
}

/**
 * Unknown and malformed codes answer the same not-found, and malformed ones never reach storage.
 * With the host it was requested on, a link served elsewhere is not found either (servedOn).
 */
export async function resolve(deps: Pick<Deps, 'links' | 'domains'>, code: string, host?: string): Promise<Link> {
  const link = LINK_LIMITS.codePattern.test(code) ? await deps.links.findByCode(code) : null;
  if (!link || (host !== undefined && !(await servedOn(deps, link, host)))) throw errors.notFound('code', code);
  return link;
}

/**
 * A customer domain carries its owner's brand, so it serves only the links made for it: a link
 * made without a domain (an anonymous POST /shorten, or one stored before domains existed) is
 * served on any other host (the service's own short domain, however the deployment reaches it),
 * and a link made for a customer domain on that domain only.
 */
async function servedOn(deps: Pick<Deps, 'domains'>, link: Link, host: string): Promise<boolean> {
  const name = requestHostName(host);
  if (link.domain) return name === link.domain;
  return name === '' || !(await deps.domains.findByName(name));
}

/** A Host header as a domain is stored: lower case, ASCII (xn--) form, no port or final dot. */
export function requestHostName(host: string): string {
  try {
    return new URL(`http://${host.trim()}`).hostname.replace(/\.$/, '');
  } catch {
    return host.trim().toLowerCase();
  }
}

export async function linkStats(deps: Pick<Deps, 'links' | 'domains' | 'tallies'>, code: string): Promise<{ link: Link; clicks: number }> {
  const link = await resolve(deps, code);
  const tally = await deps.tallies.get(code);
  return { link, clicks: tally?.count ?? 0 };
}
