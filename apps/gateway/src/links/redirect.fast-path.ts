import type { IncomingMessage, ServerResponse } from 'node:http';
import { META } from '@feedback/kit-core/runtime';
import { requestObserver, type Metrics } from '../http/metrics.js';
import { countingRequestIds, genReqId } from '../http/request-context.js';
import { requestHost } from './link.resolver.js';
import { asciiLocation, redirectHeaderList, SHORT_CODE_PATH } from './redirect.views.js';

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
 *
 * At 50 connections the link thread's garbage collection competes with the load for the cores
 * (docs/performance.md), so a redirect allocates little: one header list filled in place (Node
 * writes it out before `writeHead` returns), the Location and Host of the previous redirect kept
 * (taps of one campaign come to one link on one host), counted request ids, and a histogram
 * observer that does not hash its labels each time (requestObserver).
 */
export function redirectFastPath(deps: FastPathDeps) {
  const status = String(deps.redirectStatus);
  const observe = {
    GET: requestObserver(deps.metrics, { listener: 'link', method: 'GET', route: '/:code', status }),
    HEAD: requestObserver(deps.metrics, { listener: 'link', method: 'HEAD', route: '/:code', status }),
  };
  const headers = [...redirectHeaderList('', deps.redirectStatus), META.requestId, '', 'content-length', '0'];
  const idAt = headers.length - 3;
  const newId = countingRequestIds();
  let lastUrl: string | undefined;
  let lastLocation = '';
  let lastHostHeader: string | undefined;
  let lastHost = requestHost(undefined);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const code = SHORT_CODE_PATH.exec(req.url ?? '')?.[1];
    if (!code) return false;
    const hostHeader = req.headers.host;
    if (hostHeader !== lastHostHeader) {
      lastHostHeader = hostHeader;
      lastHost = requestHost(hostHeader);
    }
    // Keyed by the Host too: a customer domain serves only its own links (link.resolver.ts).
    const fullUrl = deps.links.cached(code, lastHost);
    if (fullUrl === undefined) return false;
    const started = performance.now();
    if (fullUrl !== lastUrl) {
      lastUrl = fullUrl;
      lastLocation = asciiLocation(fullUrl);
    }
    headers[1] = lastLocation;
    headers[idAt] = genReqId(req, newId);
    res.writeHead(deps.redirectStatus, headers);
    res.end();
    deps.clicks.record(code, req);
    observe[req.method]((performance.now() - started) / 1000);
    return true;
  };
}
