import type { RequestLogging } from '@feedback/kit-core/runtime';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's request logging, cut to one access line per request (docs/decisions.md "Request
 * logging"). Fastify writes two lines per request ("incoming request" at the start, "request
 * completed" at the end), each a JSON serialisation with its own timestamp and write; on the
 * hot path that was a tenth of the gateway's CPU. Here:
 *   all    one line at completion: request_id (the child logger's binding), method, route,
 *          query parameter names, status, duration_ms, client ip; a failed response at error level
 *   errors only responses of 500 and above, and requests that failed in flight
 *   off    none (a proxy in front keeps the access log)
 * No line holds the URL itself (requestView). Error lines of the error handler, 503s while
 * closing and every other log line are unchanged.
 */
export class AccessLogController extends LogController {
  constructor(private readonly mode: RequestLogging) {
    // disableRequestLogging stays off: it would also silence fastify's stream and serializer errors.
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.mode === 'off') return;
    const status = reply.statusCode;
    if (!error && this.mode === 'errors' && status < 500) return;
    const line = {
      ...requestView(request),
      status,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      ip: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (status >= 500) reply.log.warn(line, 'request');
    else reply.log.info(line, 'request');
  }

  // Fastify's own lines with `req` in them: the request as requestView shows it, never its URL.
  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (reply.statusCode >= 500) reply.log.error({ ...requestView(request), err: error }, 'request failed');
    else reply.log.info({ ...requestView(request), status: reply.statusCode }, 'request refused');
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.warn({ ...requestView(request), err: error }, 'writing the response head failed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ method: request.method, route: null }, 'route not found');
  }
}

/**
 * What a log line may say about a request: its method, its route's template
 * (`/v1/sms_opt_outs/:phone`; null when no route matched) and the names of the query parameters
 * the route declares (`query_other`: how many more). The URL's own path and values hold phones,
 * e-mail addresses and capability tokens (`/s/{token}`, blob tokens), and a name the route does
 * not know may be anything, so neither is written (docs/decisions.md "Request logging").
 */
export function requestView(request: FastifyRequest): { method: string; route: string | null; query?: string[]; query_other?: number } {
  const view: { method: string; route: string | null; query?: string[]; query_other?: number } = {
    method: request.method,
    route: request.routeOptions?.url ?? null,
  };
  const url = request.url ?? '';
  const q = url.indexOf('?');
  if (q === -1 || q === url.length - 1) return view;
  const declared = (request.routeOptions?.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
  // A Set: a name sent a thousand times is written once.
  const names = new Set<string>();
  let other = 0;
  for (const pair of url.slice(q + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (declared && Object.hasOwn(declared, name)) names.add(name);
    else other++;
  }
  if (names.size > 0) view.query = [...names];
  if (other > 0) view.query_other = other;
  return view;
}
