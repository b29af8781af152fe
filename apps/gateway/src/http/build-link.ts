import type { Logger } from '@feedback/kit-core';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { registerErrorHandling } from './error-handler.js';
import { registerMetrics, type Metrics } from './metrics.js';
import { genReqId, registerRequestContext } from './request-context.js';

export interface LinkDeps {
  logger: Logger;
  metrics: Metrics;
}

/** The link listener ({shortener_url}): POST /shorten and GET /{code}. */
export async function buildLink(deps: LinkDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: 16 * 1024,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
  });
  registerRequestContext(app);
  registerErrorHandling(app);
  registerMetrics(app, deps.metrics, 'link');
  app.get('/health', async () => ({ status: 'ok' }));
  return app;
}
