import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from '@feedback/kit-core';
import Fastify, { type FastifyInstance } from 'fastify';
import { baseFastifyOptions } from './fastify-options.js';
import type { AdminDeps } from '../domain/admin.use-cases.js';
import { makeAdminAuth } from './admin-auth.js';
import { makeAuthenticator } from './auth.js';
import { registerErrorHandling } from './error-handler.js';
import { registerFileRoutes, type FileRoutesDeps } from './files/register-file-routes.js';
import { registerMetrics, type Metrics } from './metrics.js';
import { registerOpenApi } from './openapi.js';
import { registerRequestContext } from './request-context.js';
import { adminLinksRoutes, type AdminLinksPort } from './routes/admin-links.routes.js';
import { adminRoutes, type AdminFlowsPort } from './routes/admin.routes.js';
import { flowsRoutes, type FlowsPort } from './routes/flows.routes.js';
import { healthRoutes, type ReadinessCheck } from './routes/health.routes.js';
import { AccountSchema, IssuedTokenSchema, NodeSchema, TokenInfoSchema } from './schemas/admin.schemas.js';
import { ErrorBodySchema } from './schemas/common.schemas.js';
import { FlowSchema } from './schemas/flow.schemas.js';

export interface ApiDeps extends AdminDeps {
  logger: Logger;
  flows: FlowsPort & AdminFlowsPort;
  adminToken: string;
  readiness: ReadinessCheck[];
  metrics: Metrics;
  bodyLimitBytes: number;
  publicUrl?: string;
  /** The file routes; left out, they are not served. */
  files?: FileRoutesDeps;
  /** The admin routes of short links and customer domains; left out, they are not served. */
  shortener?: AdminLinksPort;
}

/** The API listener ({base_url}). Pure construction: main.ts decides where it listens. */
export async function buildApi(deps: ApiDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...baseFastifyOptions(deps.logger, deps.bodyLimitBytes),
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  for (const schema of [ErrorBodySchema, FlowSchema, AccountSchema, NodeSchema, IssuedTokenSchema, TokenInfoSchema]) {
    app.addSchema(schema);
  }
  // JSON in, JSON out: a text/plain body is refused with 415 rather than half-parsed.
  app.removeContentTypeParser('text/plain');
  registerRequestContext(app);
  registerErrorHandling(app);
  registerMetrics(app, deps.metrics, 'api');
  await registerOpenApi(app, {
    title: 'Customer Feedback Service API',
    description: 'Active surveys, SMS sharing, file service, flow details. Errors: {error_message, data, code, errors}.',
    serverUrl: deps.publicUrl,
  });

  const auth = makeAuthenticator(deps.tokens);
  healthRoutes(app, { checks: deps.readiness, metrics: deps.metrics });
  await app.register(flowsRoutes({ flows: deps.flows, auth }));
  if (deps.files) await registerFileRoutes(app, { ...deps.files, auth });
  await app.register(adminRoutes({ ...deps, adminAuth: makeAdminAuth(deps.adminToken) }), { prefix: '/admin/v1' });
  if (deps.shortener) {
    await app.register(adminLinksRoutes({ ...deps, shortener: deps.shortener, adminAuth: makeAdminAuth(deps.adminToken) }), { prefix: '/admin/v1' });
  }
  return app;
}
