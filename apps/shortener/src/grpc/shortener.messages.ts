import type { Domain as DomainMessage, Link as LinkMessage } from '@feedback/proto/feedback/shortener/v1/shortener';
import { shortUrlOf, type CustomerDomain, type Link, type LinkSettings } from '../domain/link.js';

/** proto <-> domain for the shortener: the handlers call use cases and these only. */
export function linkMessage(link: Link, settings: Pick<LinkSettings, 'shortBase'>): LinkMessage {
  return {
    code: link.code,
    fullUrl: link.fullUrl,
    shortUrl: shortUrlOf(link, settings),
    accountId: link.accountId ?? '',
    domain: link.domain ?? '',
    createdAt: link.createdAt.toISOString(),
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
