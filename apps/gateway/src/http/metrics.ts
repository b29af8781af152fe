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

type RequestLabels = { listener: string; method: string; route: string; status: string };
/** One series of prom-client 15's histogram, as it keeps it (lib/histogram.js). */
interface Series {
  labels: Record<string, unknown>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

/**
 * Observes one label set of the request histogram. prom-client 15's `labels(...).observe` still
 * converts, checks and hashes the labels on every observation and turns the bucket's bound into a
 * property name: half a KiB of garbage and about a microsecond, on a redirect of 15 µs
 * (docs/performance.md). The first observation goes through prom-client and finds the series it
 * made; the next ones add to that series' bucket, sum and count directly, as prom-client does. A
 * reset registry (a new series object) or a prom-client that keeps its series otherwise is
 * noticed at the next observation, which goes through prom-client again.
 */
export function requestObserver(metrics: Metrics, labels: RequestLabels): (seconds: number) => void {
  const child = metrics.requests.labels(labels);
  const histogram = metrics.requests as unknown as { hashMap?: Record<string, Series | undefined> };
  let found: { key: string; series: Series; bounds: number[]; names: string[] } | undefined;
  return (seconds) => {
    const f = found;
    if (f === undefined || histogram.hashMap?.[f.key] !== f.series) {
      child.observe(seconds);
      found = seriesOf(histogram.hashMap, labels);
      return;
    }
    for (let i = 0; i < f.bounds.length; i++) {
      if (seconds <= f.bounds[i]!) {
        f.series.bucketValues[f.names[i]!]!++;
        break;
      }
    }
    f.series.sum += seconds;
    f.series.count++;
  };
}

function seriesOf(hashMap: Record<string, Series | undefined> | undefined, labels: RequestLabels) {
  for (const [key, series] of Object.entries(hashMap ?? {})) {
    if (!series?.labels || typeof series.sum !== 'number' || typeof series.count !== 'number' || !series.bucketValues) continue;
    if (!Object.entries(labels).every(([name, value]) => series.labels[name] === value)) continue;
    // Ascending, as prom-client looks for the bucket; integer bounds ("1", "10") come first in an object's keys.
    const names = Object.keys(series.bucketValues).sort((x, y) => Number(x) - Number(y));
    const bounds = names.map(Number);
    if (!bounds.every(Number.isFinite)) return undefined;
    return { key, series, bounds, names };
  }
  return undefined;
}

export function registerMetrics(app: FastifyInstance, metrics: Metrics, listener: string) {
  // One observer per (method, route, status) (requestObserver). Routes and statuses are few, so
  // the map stays small.
  const bound = new Map<string, (seconds: number) => void>();
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const key = `${req.method} ${reply.statusCode} ${route}`;
    let observe = bound.get(key);
    if (!observe) {
      observe = requestObserver(metrics, { listener, method: req.method, route, status: String(reply.statusCode) });
      bound.set(key, observe);
    }
    observe(reply.elapsedTime / 1000);
    done();
  });
}
