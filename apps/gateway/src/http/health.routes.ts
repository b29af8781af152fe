import { Type } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

export type ReadinessCheck = { name: string; check: () => Promise<void> };

const StatusBody = Type.Object({ status: Type.String() });
const DependenciesBody = Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.String()) });

/**
 * /health: the process answers (liveness, startup). /ready: this process takes traffic (readiness):
 * it answers unless it is draining, whatever its peers and stores do, because an outage they share
 * is answered route by route with 503, never by taking every gateway pod out of its Service
 * (docs/decisions.md "Probes"). /health/dependencies: what the process can reach, for people and
 * scripts. Prometheus scrapes the metrics listener (METRICS_PORT), never this public port.
 */
export function healthRoutes(app: FastifyInstance, deps: { checks: ReadinessCheck[]; draining?: () => boolean }) {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        summary: 'Whether the process answers (liveness)',
        description: 'Always 200 while the process runs; nothing else is asked.',
        security: [],
        response: { 200: StatusBody },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        summary: 'Whether this process takes traffic (readiness)',
        security: [],
        description:
          'Whether this process takes traffic: 200 while it serves, 503 once it drains for shutdown. Its peers and stores are not asked.',
        response: { 200: StatusBody, 503: StatusBody },
      },
    },
    async (_req, reply) => (deps.draining?.() ? reply.status(503).send({ status: 'draining' }) : { status: 'ready' }),
  );

  app.get(
    '/health/dependencies',
    {
      schema: {
        tags: ['health'],
        operationId: 'getDependencies',
        summary: 'What the process can reach: each peer service and store',
        security: [],
        description: 'Each peer service and store, asked now: 200 when all answer, 503 naming the failing ones otherwise.',
        response: { 200: DependenciesBody, 503: DependenciesBody },
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
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', checks: Object.fromEntries(results) });
    },
  );
}
