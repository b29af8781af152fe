import type { TSchema, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from '@feedback/kit-core';
import type { RequestLogging } from '@feedback/kit-core/runtime';
import Fastify, { type FastifyInstance } from 'fastify';
import { makeAdminAuth } from './admin-auth.js';
import type { ApiFeature } from './api-feature.js';
import { makeAuthenticator, type TokenLookup } from './auth.js';
import { ErrorBodySchema } from './common.schemas.js';
import { registerErrorHandling } from './error-handler.js';
import { baseFastifyOptions } from './fastify-options.js';
import { healthRoutes, type ReadinessCheck } from './health.routes.js';
import { registerMetrics, type Metrics } from './metrics.js';
import { registerOpenApi } from './openapi.js';
import { registerRequestContext } from './request-context.js';
import { registerUnicodeCheck } from './unicode-check.js';

export interface ApiDeps {
  logger: Logger;
  /** LOG_REQUESTS: access lines for every request (default), errors only, or none. */
  requestLogging?: RequestLogging;
  metrics: Metrics;
  /** Who may call: every feature's routes authenticate against these. */
  tokens: TokenLookup;
  adminToken: string;
  /** What /health/dependencies asks; never what /ready answers (health.routes.ts). */
  readiness: ReadinessCheck[];
  /** True once shutdown began: /ready answers 503 so no new traffic is sent here. */
  draining?: () => boolean;
  bodyLimitBytes: number;
  publicUrl?: string;
  features: ApiFeature[];
}

/** The API listener ({base_url}). Pure construction: main.ts decides its features and where it listens. */
export async function buildApi(deps: ApiDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...baseFastifyOptions(deps.logger, deps.bodyLimitBytes, deps.requestLogging),
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  for (const schema of uniqueById([ErrorBodySchema, ...deps.features.flatMap((f) => f.schemas ?? [])])) app.addSchema(schema);
  // JSON in, JSON out: a text/plain body is refused with 415 rather than half-parsed.
  app.removeContentTypeParser('text/plain');
  registerRequestContext(app);
  registerErrorHandling(app);
  registerUnicodeCheck(app);
  registerMetrics(app, deps.metrics, 'api');
  await registerOpenApi(app, {
    title: 'Customer Feedback Service API',
    description: 'Active surveys, SMS sharing, file service, flow details. Errors: {error_message, data, code, errors}.',
    serverUrl: deps.publicUrl,
    tags: [
      { name: 'surveys', description: "A customer's active surveys and personal survey links (integration token)." },
      { name: 'survey page', description: 'The page a personal survey link opens, in HTML; the link itself is the capability.' },
      { name: 'flows', description: 'Survey flows and their questions (either kind of token).' },
      { name: 'sms', description: "Sending a campaign's survey link by SMS, and each recipient's status (API token)." },
      { name: 'files', description: 'Directories and files for workflows (API token), and the public URLs of their bytes.' },
      {
        name: 'webhooks',
        description: "Signed webhooks (Standard Webhooks) of the account's events: endpoints, secrets, delivery logs (API token).",
      },
      { name: 'responses', description: "The account's survey responses: list, one, a flow's NPS, CSV export (API token)." },
      { name: 'privacy', description: "Erasure of one person's data on request, across every service (API token)." },
      {
        name: 'admin',
        description:
          'Accounts, tokens, nodes, flows, link channels, SMS campaigns and providers, customer link domains, responses (operators only: ADMIN_TOKEN).',
      },
      { name: 'health', description: 'Whether this process answers and takes traffic, and what it can reach.' },
    ],
    securitySchemes: ['apiToken', 'integrationToken', 'adminToken'],
  });

  healthRoutes(app, { checks: deps.readiness, draining: deps.draining });
  const ctx = { auth: makeAuthenticator(deps.tokens) };
  for (const feature of deps.features) if (feature.routes) await app.register(feature.routes(ctx));
  const adminAuth = makeAdminAuth(deps.adminToken);
  await app.register(
    async (admin) => {
      admin.addHook('onRequest', adminAuth);
      for (const feature of deps.features) if (feature.adminRoutes) await admin.register(feature.adminRoutes);
    },
    { prefix: '/admin/v1' },
  );
  return app;
}

/** Two features may share a schema (admin and flows both answer a Flow); fastify refuses an id twice. */
function uniqueById(schemas: TSchema[]): TSchema[] {
  return [...new Map(schemas.map((s) => [(s as { $id?: string }).$id ?? s, s])).values()];
}
