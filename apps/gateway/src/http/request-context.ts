import { META, newRequestId, runWithContext, sanitizeRequestId } from '@feedback/kit-core/runtime';
import type { FastifyInstance } from 'fastify';

/** Request id from a trusted-looking `x-request-id`, or a new one; echoed on every response. */
export function genReqId(req: { headers: Record<string, string | string[] | undefined> }): string {
  return sanitizeRequestId(req.headers[META.requestId]) ?? newRequestId();
}

/** Runs the rest of each request inside its context, so logs and gRPC calls carry the id. */
export function registerRequestContext(app: FastifyInstance) {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(META.requestId, req.id);
    runWithContext({ requestId: req.id }, done);
  });
}

/**
 * Only echoes the request id, for a listener whose routes pass it on themselves: the link
 * listener. Node 20 runs AsyncLocalStorage on async hooks, and once a thread has entered a
 * context they cost every request of that thread, redirects included (docs/performance.md).
 */
export function registerRequestIdEcho(app: FastifyInstance) {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(META.requestId, req.id);
    done();
  });
}
