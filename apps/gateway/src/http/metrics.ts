import type { FastifyInstance } from 'fastify';
import { AggregatorRegistry, collectDefaultMetrics, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';

/** A registry's metrics as `getMetricsAsJSON` gives them: what another thread sends. */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

export interface MetricsOptions {
  /** Node's process metrics (CPU, memory, event loop); off in a second thread of the same process. */
  processMetrics?: boolean;
}

/** Prometheus metrics: process defaults plus one request histogram labelled by route. */
export function createMetrics(service: string, opts: MetricsOptions = {}) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (opts.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['listener', 'method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const others: Array<() => Promise<MetricsJson>> = [];
  return {
    registry,
    requests,
    /** Adds another thread's metrics (the link listener's) to what `exposition` serves. */
    include(source: () => Promise<MetricsJson>) {
      others.push(source);
    },
    /** The text /metrics serves: this registry's metrics and those of every included thread. */
    async exposition(): Promise<string> {
      if (others.length === 0) return registry.metrics();
      const all = [await registry.getMetricsAsJSON(), ...(await Promise.all(others.map((get) => get())))];
      // Each thread observes its own label sets (listener="api" or "link"), so a union is the merge:
      // "first" keeps each (metric, labels) series once, where "sum" would also add up process gauges.
      const union = all.map((metrics) => metrics.map((m) => ({ ...m, aggregator: 'first' as const })));
      return AggregatorRegistry.aggregate(union).metrics();
    },
  };
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
