import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from './common.schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A body fastify does not parse (a streamed upload), described for the OpenAPI document only. */
    openapiBody?: unknown;
  }
}

/** OpenAPI 3 from the route schemas, at /openapi.json, and a browsable page at /docs. */
export async function registerOpenApi(app: FastifyInstance, opts: { title: string; description: string; serverUrl?: string }) {
  await app.register(swagger, {
    // A path parameter over 200 characters is 414 on every route that has one (the router's limit).
    // A route whose body fastify does not parse (a streamed upload) describes it in
    // `config.openapiBody`, for the document only.
    transform: ({ schema, url, route }) => {
      if (!schema || schema.hide) return { schema, url };
      const docBody = (route.config as { openapiBody?: unknown } | undefined)?.openapiBody;
      const response = (schema.response ?? {}) as Record<string, unknown>;
      // A page route (text/html) answers its own errors as pages, but the router's 414 comes before
      // it runs, in the JSON error body; every route that validates input can answer 400.
      const page = (schema.produces as string[] | undefined)?.includes('text/html');
      const validates = Boolean(schema.params || schema.querystring || schema.body || docBody);
      const edge = {
        ...(validates && !page && errorResponses(400)),
        ...(url.includes(':') && { 414: page ? jsonErrorOnly('URI too long (before the page route runs)') : errorResponses(414)[414] }),
      };
      return {
        schema: {
          ...schema,
          ...(docBody ? { body: docBody } : {}),
          response: { ...edge, ...response },
        },
        url,
      };
    },
    openapi: {
      openapi: '3.0.3',
      info: { title: opts.title, description: opts.description, version: '1.0.0' },
      servers: opts.serverUrl ? [{ url: opts.serverUrl }] : [],
      components: {
        securitySchemes: {
          apiToken: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'API token: `Token token=<API_TOKEN>` or `Token token="<API_TOKEN>"`.',
          },
          integrationToken: { type: 'http', scheme: 'bearer', description: 'Integration token: `Bearer <TOKEN>`.' },
          adminToken: { type: 'http', scheme: 'bearer', description: "The deployment's ADMIN_TOKEN." },
        },
      },
      tags: [
        { name: 'flows', description: 'Survey flows and their questions' },
        { name: 'admin', description: 'Accounts, tokens, nodes and flows (operators only)' },
        { name: 'health', description: 'Liveness, readiness and metrics' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** A response in the JSON error body on a route whose other answers are HTML. */
const jsonErrorOnly = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: 'ErrorBody#' } } } });
