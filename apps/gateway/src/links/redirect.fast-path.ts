import type { IncomingMessage, ServerResponse } from 'node:http';
import { META } from '@feedback/kit-core/runtime';
import type { Metrics } from '../http/metrics.js';
import { genReqId } from '../http/request-context.js';
import { requestHost } from './link.resolver.js';
import { redirectHeaderList, SHORT_CODE_PATH } from './redirect.views.js';

export interface FastPathDeps {
  links: { cached(code: string, host?: string): string | undefined };
  /** Every redirect answered goes here; it decides which are clicks (click-filter.ts). */
  clicks: { record(code: string, req: IncomingMessage): void };
  redirectStatus: number;
  metrics: Metrics;
}

/**
 * Answers `GET|HEAD /{code}` for a code already resolved in this process straight on the
 * Node server, before fastify: the redirect is the hot path, and routing, hooks and the reply
 * object cost as much as the redirect itself. It answers exactly as the fastify route does
 * (status, Location, cache-control, x-request-id, the request histogram); everything else
 * (misses, unknown codes, other routes) goes to fastify. Returns whether it answered.
 */
export function redirectFastPath(deps: FastPathDeps) {
  const status = String(deps.redirectStatus);
  // Label sets bound once: prom-client otherwise hashes the labels on every observation.
  const observe = {
    GET: deps.metrics.requests.labels({ listener: 'link', method: 'GET', route: '/:code', status }),
    HEAD: deps.metrics.requests.labels({ listener: 'link', method: 'HEAD', route: '/:code', status }),
  };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const code = SHORT_CODE_PATH.exec(req.url ?? '')?.[1];
    // Keyed by the Host too: a customer domain serves only its own links (link.resolver.ts).
    const fullUrl = code ? deps.links.cached(code, requestHost(req.headers.host)) : undefined;
    if (!code || fullUrl === undefined) return false;
    const started = performance.now();
    const headers = redirectHeaderList(fullUrl, deps.redirectStatus);
    headers.push(META.requestId, genReqId(req), 'content-length', '0');
    res.writeHead(deps.redirectStatus, headers);
    res.end();
    deps.clicks.record(code, req);
    observe[req.method].observe((performance.now() - started) / 1000);
    return true;
  };
}
