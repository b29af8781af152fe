import { Type } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

export type ReadinessCheck = { name: string; check: () => Promise<void> };

/** /health: the process is alive. /ready: every peer and store answers. /metrics: Prometheus. */
export function healthRoutes(app: FastifyInstance, deps: { checks: ReadinessCheck[]; metrics: Metrics }) {
  app.get('/health', { schema: { tags: ['health'], response: { 200: Type.Object({ status: Type.String() }) } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        response: {
          200: Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.String()) }),
          503: Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.String()) }),
        },
      },
    },
    async (_req, reply) => {
      const results = await Promise.all(
        deps.checks.map(async (c) => {
          try {
            await c.check();
            return [c.name, 'ok'] as const;
          } catch {
            return [c.name, 'failing'] as const;
          }
        }),
      );
      const ok = results.every(([, r]) => r === 'ok');
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
    },
  );

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.exposition();
  });
}
