import { isoWithOffset } from '@feedback/kit-core';
import type { Domain, Link } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { Account, ApiToken, Node } from '../../accounts/domain/account.js';

export const accountView = (a: Account) => ({ id: a.id, name: a.name, created_at: isoWithOffset(a.createdAt) });
export const nodeView = (n: Node) => ({ id: n.id, name: n.name, created_at: isoWithOffset(n.createdAt) });

/** The one answer that carries the secret: right after issuing. */
export const issuedTokenView = (t: ApiToken, secret: string) => ({
  id: t.id,
  kind: t.kind,
  name: t.name,
  token: secret,
  created_at: isoWithOffset(t.createdAt),
});

export const tokenInfoView = (t: ApiToken) => ({
  id: t.id,
  kind: t.kind,
  name: t.name,
  created_at: isoWithOffset(t.createdAt),
  revoked_at: t.revokedAt ? isoWithOffset(t.revokedAt) : null,
});

const iso = (s: string) => isoWithOffset(new Date(s));

export function linkStatsView(link: Link | undefined, clicks: number) {
  if (!link) throw new Error('shortener answered without a link');
  return {
    id: link.code,
    full_url: link.fullUrl,
    short_url: link.shortUrl,
    account_id: link.accountId || null,
    domain: link.domain || null,
    created_at: iso(link.createdAt),
    clicks,
    title: link.title ?? null,
    tags: link.tags?.tags ?? [],
    expires_at: link.expiresAt ? iso(link.expiresAt) : null,
    max_clicks: link.maxClicks ?? null,
    expired_url: link.expiredUrl ?? null,
  };
}

export function domainView(d: Domain | undefined) {
  if (!d) throw new Error('shortener answered without a domain');
  return { domain: d.name, default: d.default, created_at: iso(d.createdAt) };
}
