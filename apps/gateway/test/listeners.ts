import type { AddressInfo } from 'node:net';
import { createLogger } from '@feedback/kit-core/runtime';
import type { FastifyInstance } from 'fastify';
import { buildApi, type ApiDeps } from '../src/http/build-api.js';
import { createMetrics } from '../src/http/metrics.js';
import { buildLink, type LinkDeps } from '../src/links/link-listener.js';
import { LinkResolver } from '../src/links/link.resolver.js';
import type { ResolvePort, ShortenPort } from '../src/links/links.port.js';
import type { LinkRoutesDeps } from '../src/links/links.routes.js';
import { QrCodeCache } from '../src/links/qr-code.cache.js';

/*
 * The gateway's two listeners built in this process, as main.ts builds them, on test defaults a
 * test overrides only where it looks: no token is known, no readiness check, nothing is limited.
 */

const logger = createLogger('gateway-test', 'silent');
const notUsed = () => Promise.reject(new Error('not used'));

/** The API listener with `features`; no token known, no readiness checks, a 1 MiB body limit. */
export function testApi(deps: Pick<ApiDeps, 'features'> & Partial<ApiDeps>): Promise<FastifyInstance> {
  return buildApi({
    logger,
    metrics: createMetrics('gateway-test'),
    tokens: { findByHash: async () => null },
    adminToken: 'x'.repeat(32),
    readiness: [],
    bodyLimitBytes: 1024 * 1024,
    ...deps,
  });
}

/**
 * The link listener over `shortener` (by default one that is never called), resolved through a
 * small cache without Redis (QR codes too): clicks go nowhere, no client is limited, no token is known, 302s.
 */
export function testLink(
  opts: Partial<Omit<LinkDeps, 'links'>> & {
    shortener?: ShortenPort & ResolvePort;
    links?: Partial<Omit<LinkRoutesDeps, 'shortener' | 'links'>>;
  } = {},
): Promise<FastifyInstance> {
  const { shortener = { resolve: notUsed, shorten: notUsed }, links, ...deps } = opts;
  return buildLink({
    logger,
    metrics: createMetrics('gateway-test'),
    qr: { codes: new QrCodeCache(shortener, { maxBytes: 1024 * 1024, ttlMs: 60_000, missTtlMs: 1_000 }) },
    ...deps,
    links: {
      shortener,
      links: new LinkResolver(shortener, null, { maxEntries: 10, ttlMs: 60_000, missTtlMs: 1_000, logger }),
      clicks: { record: () => {} },
      limiter: { consume: async () => ({ allowed: true, exempt: true, limit: 1, windowSec: 1, remaining: 1, resetMs: 0 }) },
      redirectStatus: 302,
      tokens: { findByHash: async () => null },
      ...links,
    },
  });
}

/** Listens on a free loopback port: the listener's base URL. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
