import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  register,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
  type Metric,
} from 'prom-client';

/**
 * The one registry of a process (of a thread, in a worker): prom-client's global `register`. Every
 * metric of every package lands here, and the metrics listener serves exactly this registry, so a
 * package adds a metric by creating it (with the helpers below) and nothing else.
 */
export const metricsRegistry = register;

/** Latency buckets in seconds for calls that take from a millisecond to about ten seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Get-or-create: a module loaded twice (tests, two entry points in one bundle) gets the metric
 * registered the first time instead of prom-client's "already registered" throw. Name and type
 * decide; a second definition with other labels is a bug the first caller's labels will surface.
 */
function existing<M extends Metric>(name: string, type: abstract new (...args: never[]) => M): M | undefined {
  const found = metricsRegistry.getSingleMetric(name);
  if (found === undefined) return undefined;
  if (!(found instanceof type)) throw new Error(`metric ${name} is already registered with another type`);
  return found;
}

export function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  return existing(config.name, Counter<L>) ?? new Counter<L>(config);
}

export function gauge<L extends string>(config: GaugeConfiguration<L>): Gauge<L> {
  return existing(config.name, Gauge<L>) ?? new Gauge<L>(config);
}

export function histogram<L extends string>(config: HistogramConfiguration<L>): Histogram<L> {
  return existing(config.name, Histogram<L>) ?? new Histogram<L>({ buckets: LATENCY_BUCKETS, ...config });
}

let processMetricsOn = false;

/**
 * Names the process in every series (label `app`, e.g. app="messaging") and, once per process, adds
 * Node's process metrics (CPU, memory, event loop lag, GC). A worker thread calls it with
 * `processMetrics: false`: the main thread already reports the process.
 */
export function useAppLabel(app: string, opts: { processMetrics?: boolean } = {}): void {
  metricsRegistry.setDefaultLabels({ app });
  if ((opts.processMetrics ?? true) && !processMetricsOn) {
    processMetricsOn = true;
    collectDefaultMetrics({ register: metricsRegistry });
  }
}
