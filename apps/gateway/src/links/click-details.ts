import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import UAParser from 'ua-parser-js';

/** What a counted click came from (the LinkClicked record's ClickDetails); '' where unknown. */
export interface ClickDetails {
  device: string;
  os: string;
  browser: string;
  referrerHost: string;
  country: string;
}

interface Agent {
  device: string;
  os: string;
  browser: string;
}

/**
 * Device type, OS and browser of a user agent, by ua-parser-js 1.x (MIT; 2.x is AGPL: see
 * docs/decisions.md "Link analytics"). No device type is a desktop, as ua-parser-js means it.
 */
export function parseAgent(userAgent: string): Agent {
  const r = new UAParser(userAgent).getResult();
  return { device: r.device.type ?? 'desktop', os: r.os.name ?? '', browser: r.browser.name ?? '' };
}

// A parse costs ~30 µs, more than the redirect itself (docs/performance.md "Link analytics"); most
// taps come from a few hundred user agents, so the answer is kept per user agent. The size bound
// keeps made-up 16 KiB user agents from filling memory (as the click filter's verdicts).
const agents = new LRUCache<string, Agent>({
  max: 5_000,
  maxSize: 2_000_000,
  sizeCalculation: (_agent, ua) => ua.length,
  ttl: 3_600_000,
});

function agentOf(userAgent: string | undefined): Agent {
  if (!userAgent) return { device: '', os: '', browser: '' };
  let agent = agents.get(userAgent);
  if (agent === undefined) agents.set(userAgent, (agent = parseAgent(userAgent)));
  return agent;
}

/**
 * The host name of a Referer header, lower case; '' for none or anything that is no http(s)
 * URL. Only the host: the path and query of the page a link was on may name a person.
 */
export function referrerHost(referer: string | undefined): string {
  if (!referer || referer.length > 4096) return '';
  try {
    const url = new URL(referer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : '';
  } catch {
    return '';
  }
}

const COUNTRY = /^[A-Z][A-Z0-9]$/;

/** An ISO 3166-1 alpha-2 code as edges send it ("tr" → "TR"); '' for none, "XX" (unknown) and anything else. */
export function countryCode(value: string | undefined): string {
  const code = value?.trim().toUpperCase() ?? '';
  return COUNTRY.test(code) && code !== 'XX' ? code : '';
}

export interface ClickDetailsOptions {
  /**
   * LINK_COUNTRY_HEADER: a request header a trusted edge sets to the client's country (e.g.
   * `CF-IPCountry`); '' (the default) trusts no header, since any client could send one.
   */
  countryHeader: string;
  /** LINK_GEOIP_DATABASE's reader (geoip.country.ts), when configured: the client address's country. */
  geoip?: { country(ip: string): string };
  /** The client's address as fastify has it under TRUST_PROXY (client-ip.ts). */
  clientIp(req: IncomingMessage): string;
}

/**
 * Describes a counted click from its request alone, after the redirect was answered: the
 * parsed user agent (cached), the referrer's host and, where the deployment provides it, the
 * country (the trusted header first, else the GeoIP database).
 */
export function clickDetailsOf(opts: ClickDetailsOptions): (req: IncomingMessage) => ClickDetails {
  const header = opts.countryHeader.toLowerCase();
  return (req) => {
    const h = req.headers;
    let country = header ? countryCode(headerValue(h[header])) : '';
    if (!country && opts.geoip) country = opts.geoip.country(opts.clientIp(req));
    return { ...agentOf(h['user-agent']), referrerHost: referrerHost(headerValue(h.referer)), country };
  };
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
