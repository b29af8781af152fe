import { isoWithOffset } from '@feedback/kit-core';
import type { LinkWithClicks, ListLinksResponse, UpdateLinkRequest } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { Static } from '@fastify/type-provider-typebox';
import type { UpdateLinkBody } from './account-links.schemas.js';

const iso = (s: string) => isoWithOffset(new Date(s));

/** One of an account's links as the API and the admin API show it. */
export function accountLinkView(counted: LinkWithClicks | undefined) {
  const link = counted?.link;
  if (!link) throw new Error('shortener answered without a link');
  return {
    id: link.code,
    short_url: link.shortUrl,
    full_url: link.fullUrl,
    domain: link.domain || null,
    title: link.title ?? null,
    tags: link.tags?.tags ?? [],
    expires_at: link.expiresAt ? iso(link.expiresAt) : null,
    max_clicks: link.maxClicks ?? null,
    expired_url: link.expiredUrl ?? null,
    clicks: counted.clicks,
    created_at: iso(link.createdAt),
  };
}

export const accountLinksPageView = (page: ListLinksResponse) => ({
  data: page.links.map(accountLinkView),
  next_page_token: page.nextPageToken || null,
});

/** The PATCH body as UpdateLink takes it: absent stays absent, null is the empty value that clears. */
export function updateLinkRequest(accountId: string, code: string, b: Static<typeof UpdateLinkBody>): UpdateLinkRequest {
  return {
    accountId,
    code,
    ...(b.expires_at !== undefined && { expiresAt: b.expires_at ?? '' }),
    ...(b.max_clicks !== undefined && { maxClicks: b.max_clicks ?? 0 }),
    ...(b.expired_url !== undefined && { expiredUrl: b.expired_url ?? '' }),
    ...(b.title !== undefined && { title: b.title ?? '' }),
    ...(b.tags !== undefined && { tags: { tags: b.tags } }),
  };
}
