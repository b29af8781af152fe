import type { Logger } from '@feedback/kit-core';
import { META, type RequestLogging } from '@feedback/kit-core/runtime';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { frameworkError } from '../http/edge-errors.js';
import { registerErrorHandling } from '../http/error-handler.js';
import { baseFastifyOptions } from '../http/fastify-options.js';
import { registerMetrics, type Metrics } from '../http/metrics.js';
import { registerOpenApi } from '../http/openapi.js';
import { registerRequestIdEcho } from '../http/request-context.js';
import { registerUnicodeCheck } from '../http/unicode-check.js';
import { linkRoutes, notFoundPage, type LinkRoutesDeps } from './links.routes.js';
import { qrRoutes, type QrRoutesDeps } from './qr.routes.js';
import { redirectFastPath } from './redirect.fast-path.js';

export interface LinkDeps {
  logger: Logger;
  /** LOG_REQUESTS (the redirect fast path writes no access line either way). */
  requestLogging?: RequestLogging;
  metrics: Metrics;
  /** The short link routes; left out, only /health is served. */
  links?: LinkRoutesDeps & { links: { cached(code: string, host?: string): string | undefined } };
  /** GET /{code}/qr (qr.routes.ts); left out, not served. */
  qr?: QrRoutesDeps;
  /** Fastify's trustProxy: whose X-Forwarded-For decides the client IP (rate limits). */
  trustProxy?: boolean | string | ((addr: string, hop: number) => boolean);
  publicUrl?: string;
}

/** The link listener ({shortener_url}): POST /shorten, GET /{code} and GET /{code}/qr. */
export async function buildLink(deps: LinkDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...baseFastifyOptions(deps.logger, 16 * 1024, deps.requestLogging),
    routerOptions: { maxParamLength: 200 },
    // A person following an over-long "code" gets the same page as for an unknown one.
    frameworkErrors: (err, req, reply) =>
      err.code === 'FST_ERR_MAX_PARAM_LENGTH' && (req.method === 'GET' || req.method === 'HEAD')
        ? notFoundPage(reply.header(META.requestId, req.id))
        : frameworkError(err, req, reply),
    trustProxy: deps.trustProxy ?? false,
    ...(deps.links && { serverFactory: linkServer(redirectFastPath({ ...deps.links, metrics: deps.metrics })) }),
  });
  registerRequestIdEcho(app);
  registerErrorHandling(app);
  registerUnicodeCheck(app);
  registerMetrics(app, deps.metrics, 'link');
  app.get('/health', async () => ({ status: 'ok' }));
  if (deps.links) {
    await registerOpenApi(app, {
      title: 'Customer Feedback Service: short links',
      description:
        'POST /shorten makes a short link; GET /{code} redirects to it; GET /{code}/qr draws its QR code. Errors: {error_message, data, code, errors}.',
      serverUrl: deps.publicUrl,
      tags: [{ name: 'links', description: 'Making a short link, following one and its QR code.' }],
      securitySchemes: ['apiToken'],
    });
    await app.register(linkRoutes({ ...deps.links, ownDomain: deps.publicUrl ? new URL(deps.publicUrl).hostname : undefined }));
    if (deps.qr) await app.register(qrRoutes(deps.qr));
  }
  return app;
}

/**
 * A plain Node server that lets the redirect fast path answer first. Once closing, everything
 * goes to fastify, which answers 503 with `connection: close` so keep-alive clients let go.
 */
function linkServer(fastPath: ReturnType<typeof redirectFastPath>) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = createServer((req, res) => {
      if (!server.listening || !fastPath(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = 72_000;
    return server;
  };
}
