import { Server } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface DrainOptions {
  /** Longest wait for kept-alive connections to end on their own before idle ones are closed. */
  graceMs: number;
}

/**
 * A listener's shutdown that fails no request a client has sent. Called once, before anything
 * else closes (fastify's own close alone would answer requests on kept-alive connections 503, and
 * would close idle ones at once, racing a client that is just sending its next request on one):
 *
 * 1. stop accepting connections; every response from now on says `Connection: close`, so each
 *    kept-alive connection ends after its next answer, the client seeing why;
 * 2. wait until every connection has ended, or `graceMs` (a client silent all that time is not
 *    about to send: its idle connection is closed, as keepAliveTimeout would);
 * 3. wait for the requests still in flight (their connections end after the answer), then
 *    fastify's close runs its onClose hooks. The process's shutdown timeout bounds the wait.
 *
 * Register it at construction (its request listener must come first), call it at shutdown.
 */
export function gracefulClose(app: FastifyInstance, opts: DrainOptions): () => Promise<void> {
  let draining = false;
  const server = app.server;
  server.prependListener('request', (_req, res) => {
    if (draining && !res.headersSent) res.setHeader('connection', 'close');
  });
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      if (server.listening) {
        draining = true;
        // net.Server's close stops accepting and calls back once every connection has ended;
        // http.Server's own close would also close idle kept-alive connections right away.
        const ended = new Promise<void>((resolve) => Server.prototype.close.call(server, () => resolve()));
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, opts.graceMs)))]);
        clearTimeout(timer);
        server.closeIdleConnections();
        await ended;
      }
      await app.close();
    })());
}
