import type { FastifyInstance } from 'fastify';
import { histogram, metricsRegistry, useAppLabel } from '@feedback/kit-metrics';

export type { MetricsJson } from '@feedback/kit-metrics';

export interface MetricsOptions {
  /** Node's process metrics (CPU, memory, event loop); off in a second thread of the same process. */
  processMetrics?: boolean;
}

/**
 * The gateway's request histogram, labelled by listener and route, on this thread's registry (kit-metrics):
 * the main thread's is served by the metrics listener (METRICS_PORT), the link thread's is sent to it
 * at each scrape (`registry.getMetricsAsJSON()`) and merged in.
 */
export function createMetrics(app: string, opts: MetricsOptions = {}) {
  useAppLabel(app, opts);
  const requests = histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['listener', 'method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  });
  return { registry: metricsRegistry, requests };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function registerMetrics(app: FastifyInstance, metrics: Metrics, listener: string) {
  // Label sets bound once per (method, route, status): prom-client otherwise builds and hashes
  // the label object on every observation. Routes and statuses are few, so the map stays small.
  const bound = new Map<string, { observe(seconds: number): void }>();
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const key = `${req.method} ${reply.statusCode} ${route}`;
    let child = bound.get(key);
    if (!child) {
      child = metrics.requests.labels({ listener, method: req.method, route, status: String(reply.statusCode) });
      bound.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });
}
