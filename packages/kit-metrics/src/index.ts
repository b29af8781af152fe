/**
 * Prometheus metrics of every process. Add a metric by creating it with `counter`, `gauge` or
 * `histogram` (or prom-client's classes with the default `registers`): it lands on
 * `metricsRegistry`, prom-client's global registry, which is what each app's metrics listener
 * (METRICS_PORT, GET /metrics) serves. README.md has the rules for names and labels.
 */
export { counter, gauge, histogram, LATENCY_BUCKETS, metricsRegistry, useAppLabel } from './registry.js';
export { exposition, type MetricsJson, type MetricsSource } from './exposition.js';
export { metricsEnv } from './metrics-env.js';
export { outboxBacklogMetrics, type OutboxBacklog, type OutboxBacklogOptions } from './outbox-backlog.js';
export { startMetricsListener, type MetricsListener, type MetricsListenerOptions } from './metrics-listener.js';
export { Counter, Gauge, Histogram } from 'prom-client';
