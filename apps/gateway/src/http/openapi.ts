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

/** The security schemes a listener's routes may name. */
const SECURITY_SCHEMES = {
  apiToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'API token: `Token token=<API_TOKEN>` or `Token token="<API_TOKEN>"`.',
  },
  integrationToken: { type: 'http', scheme: 'bearer', description: 'Integration token: `Bearer <TOKEN>`.' },
  adminToken: { type: 'http', scheme: 'bearer', description: "The deployment's ADMIN_TOKEN." },
} as const;

export interface OpenApiOptions {
  title: string;
  description: string;
  serverUrl?: string;
  /** Every tag the listener's routes use, in the order the documentation lists them. */
  tags: Array<{ name: string; description: string }>;
  /** The security schemes its routes name (a scheme no route names is left out). */
  securitySchemes: Array<keyof typeof SECURITY_SCHEMES>;
}

/**
 * OpenAPI 3 from the route schemas, at /openapi.json, and a browsable page at /docs. Client
 * generators read it: every shared schema is a component named by its `$id`, every operation has
 * a summary, an operationId and its own `security` (`[]` when public), and every tag is declared.
 */
export async function registerOpenApi(app: FastifyInstance, opts: OpenApiOptions) {
  await app.register(swagger, {
    // A shared schema ('Flow', added with addSchema) is `#/components/schemas/Flow`, not `def-N`:
    // generated clients name their types after it.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
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
      // The plugin names a HEAD route's operation `<id>-head`; camelCase like every other one.
      const operationId =
        route.method === 'HEAD' && typeof schema.operationId === 'string'
          ? schema.operationId.replace(/-head$/, 'Head')
          : schema.operationId;
      return {
        schema: {
          ...schema,
          ...(operationId !== undefined && { operationId }),
          ...(docBody ? { body: docBody } : {}),
          response: { ...edge, ...response },
        },
        url,
      };
    },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: opts.title,
        description: opts.description,
        version: '1.0.0',
        license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
      },
      ...(opts.serverUrl && { servers: [{ url: opts.serverUrl }] }),
      components: {
        securitySchemes: Object.fromEntries(opts.securitySchemes.map((name) => [name, SECURITY_SCHEMES[name]])),
      },
      tags: opts.tags,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** A response in the JSON error body on a route whose other answers are HTML. */
const jsonErrorOnly = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: 'ErrorBody#' } } } });
