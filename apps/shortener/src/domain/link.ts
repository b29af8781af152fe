/** A short link: a random code standing for a URL, kept exactly as it was given. */
export interface Link {
  code: string;
  fullUrl: string;
  /** The account that made it (services calling over gRPC); null for the public API. */
  accountId: string | null;
  /** The customer domain of its short URL; null for the service's own short domain. */
  domain: string | null;
  createdAt: Date;
  /** What the account says about it (docs/api.md "An account's links"); each absent when not set. */
  title?: string;
  tags?: string[];
  /** Past this instant the link answers expiredUrl or the 410 page instead of fullUrl. */
  expiresAt?: Date;
  /** After this many counted clicks likewise (the gateway counts them: docs/decisions.md). */
  maxClicks?: number;
  expiredUrl?: string;
}

/** A host name an account has pointed at the link listener, e.g. "go.example.com". */
export interface CustomerDomain {
  name: string;
  accountId: string;
  createdAt: Date;
}

export const LINK_LIMITS = {
  /** Codes we ever hand out or accept: letters and digits only (URL-safe, no look-alike escapes). */
  codePattern: /^[A-Za-z0-9]{4,32}$/,
  /** How often a new code is drawn when the one drawn is taken before giving up. */
  codeAttempts: 5,
  /** URLs per ShortenMany call: a Kafka batch of SMS (50 to 500) fits with room to spare. */
  maxBatchUrls: 1000,
  maxTitle: 200,
  maxTags: 20,
  maxTag: 50,
};

export interface LinkSettings {
  /** The service's own short domain, as a base URL without a trailing slash. */
  shortBase: string;
  maxUrlLength: number;
}

/** The host name of the service's own short domain (PUBLIC_SHORTENER_URL), e.g. "sho.rt". */
export function ownDomainName(settings: Pick<LinkSettings, 'shortBase'>): string {
  return new URL(settings.shortBase).hostname;
}

/** `<domain base>/<code>`; customer domains are served over https (port 443: docs/api.md "Two listeners"). */
export function shortUrlOf(link: Pick<Link, 'code' | 'domain'>, settings: Pick<LinkSettings, 'shortBase'>): string {
  return `${link.domain ? `https://${link.domain}` : settings.shortBase}/${link.code}`;
}
