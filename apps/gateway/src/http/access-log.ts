import type { RequestLogging } from '@feedback/kit-core/runtime';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's request logging, cut to one access line per request (docs/decisions.md "Request
 * logging"). Fastify writes two lines per request ("incoming request" at the start, "request
 * completed" at the end), each a JSON serialisation with its own timestamp and write; on the
 * hot path that was a tenth of the gateway's CPU. Here:
 *   all    one line at completion: request_id (the child logger's binding), method, url, route,
 *          status, duration_ms, client ip; a failed response at error level as before
 *   errors only responses of 500 and above, and requests that failed in flight
 *   off    none (a proxy in front keeps the access log)
 * Error lines of the error handler, 503s while closing and every other log line are unchanged.
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
      method: request.method,
      url: request.url,
      route: request.routeOptions.url ?? null,
      status,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      ip: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (status >= 500) reply.log.warn(line, 'request');
    else reply.log.info(line, 'request');
  }
}
