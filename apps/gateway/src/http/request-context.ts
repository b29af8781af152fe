import { META, newRequestId, runWithContext, sanitizeRequestId } from '@feedback/kit-core/runtime';
import type { FastifyInstance } from 'fastify';

/** Request id from a trusted-looking `x-request-id`, or a new one; echoed on every response. */
export function genReqId(req: { headers: Record<string, string | string[] | undefined> }, newId = newRequestId): string {
  return sanitizeRequestId(req.headers[META.requestId]) ?? newId();
}

/**
 * New request ids for the redirect fast path, shaped as newRequestId's (a version 4 UUID): a
 * random one to start, then its last 48 bits counted up, unique in the process and, by the random
 * start, across processes. `randomUUID` builds each id of 31 strings joined one by one: half a
 * KiB of garbage and 0.6 µs, on a redirect of 15 µs (docs/performance.md). Ids only correlate
 * log lines; nothing relies on them being unpredictable.
 */
export function countingRequestIds(): () => string {
  const start = newRequestId();
  const prefix = start.slice(0, 24);
  let n = Number.parseInt(start.slice(24), 16);
  return () => {
    n = n === 0xffff_ffff_ffff ? 0 : n + 1;
    return prefix + n.toString(16).padStart(12, '0');
  };
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
