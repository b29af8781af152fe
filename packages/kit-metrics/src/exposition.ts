import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { metricsRegistry } from './registry.js';

/** A registry's metrics as `getMetricsAsJSON` gives them: what another thread sends. */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** Another thread's metrics, asked for at each scrape (the gateway's link listener thread). */
export type MetricsSource = () => Promise<MetricsJson>;

/** The Prometheus text of this thread's registry and of every included source. */
export async function exposition(sources: readonly MetricsSource[] = []): Promise<string> {
  if (sources.length === 0) return metricsRegistry.metrics();
  const all = [await metricsRegistry.getMetricsAsJSON(), ...(await Promise.all(sources.map((get) => get())))];
  // Each thread observes its own label sets (a listener="link" request, its own gRPC client), so a
  // union is the merge: "first" keeps each (metric, labels) series once, where "sum" would also add
  // up process gauges that two threads both report.
  const union = all.map((metrics) => metrics.map((m) => ({ ...m, aggregator: 'first' as const })));
  return AggregatorRegistry.aggregate(union).metrics();
}
