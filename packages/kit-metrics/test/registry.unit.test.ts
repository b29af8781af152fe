import { describe, expect, it } from 'vitest';
import { counter, gauge, histogram, LATENCY_BUCKETS, metricsRegistry } from '../src/index.js';

/** prom-client sets a histogram value's series name (_bucket, _count) but does not type it. */
const seriesName = (v: object) => (v as { metricName?: string }).metricName;

describe('metric helpers', () => {
  it('return the metric already registered under a name instead of throwing', () => {
    const a = counter({ name: 'kit_metrics_test_same_total', help: 'x' });
    const b = counter({ name: 'kit_metrics_test_same_total', help: 'x' });
    expect(b).toBe(a);
    expect(metricsRegistry.getSingleMetric('kit_metrics_test_same_total')).toBe(a);
  });

  it('refuse a name taken by a metric of another type', () => {
    gauge({ name: 'kit_metrics_test_gauge', help: 'x' });
    expect(() => counter({ name: 'kit_metrics_test_gauge', help: 'x' })).toThrow(
      'kit_metrics_test_gauge is already registered with another type',
    );
  });

  it('give histograms the latency buckets unless told otherwise', async () => {
    histogram({ name: 'kit_metrics_test_seconds', help: 'x' }).observe(0.003);
    histogram({ name: 'kit_metrics_test_custom_seconds', help: 'x', buckets: [1, 2] }).observe(1.5);
    const json = await metricsRegistry.getMetricsAsJSON();
    const buckets = (name: string) =>
      json
        .find((m) => m.name === name)!
        .values.filter((v) => seriesName(v) === `${name}_bucket`)
        .map((v) => v.labels.le);
    expect(buckets('kit_metrics_test_seconds')).toEqual([...LATENCY_BUCKETS, '+Inf']);
    expect(buckets('kit_metrics_test_custom_seconds')).toEqual([1, 2, '+Inf']);
  });
});
