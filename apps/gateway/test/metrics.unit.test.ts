import { exposition } from '@feedback/kit-metrics';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics, requestObserver } from '../src/http/metrics.js';

/** The request count of the series with exactly these labels (in whatever order the text has them). */
function requestCount(text: string, labels: Record<string, string>): number | undefined {
  for (const [, set, value] of text.matchAll(/^http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm)) {
    const parsed = Object.fromEntries([...set!.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
    if (JSON.stringify(Object.entries(parsed).sort()) === JSON.stringify(Object.entries(labels).sort())) return Number(value);
  }
  return undefined;
}
const api = { listener: 'api', method: 'GET', route: '/health', status: '200', app: 'gateway' };
const link = { listener: 'link', method: 'GET', route: '/:code', status: '302', app: 'gateway' };

/** The link thread as the main thread sees it: a registry of its own, sent as JSON at each scrape. */
function linkThreadRegistry() {
  const registry = new Registry();
  registry.setDefaultLabels({ app: 'gateway' });
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['listener', 'method', 'route', 'status'],
    buckets: [0.001, 0.01],
    registers: [registry],
  });
  return { registry, requests };
}

// What the metrics listener serves for a process whose link listener runs in a second thread.
describe('gateway metrics', () => {
  it('observe requests on the main thread registry, labelled with the app, process metrics included', async () => {
    const main = createMetrics('gateway');
    const before = requestCount(await exposition(), api) ?? 0;
    main.requests.labels({ listener: 'api', method: 'GET', route: '/health', status: '200' }).observe(0.002);
    const text = await exposition();
    expect(requestCount(text, api)).toBe(before + 1);
    expect(text).toMatch(/^process_resident_memory_bytes\{app="gateway"\} \d+$/m);
  });

  it('count through requestObserver exactly what prom-client’s own observe counts, also after a reset', async () => {
    const main = createMetrics('gateway');
    const ours = { listener: 'link', method: 'HEAD', route: '/:code', status: '302' };
    const theirs = { ...ours, status: '301' };
    const observe = requestObserver(main, ours);
    const values = [0.0004, 0.001, 0.0011, 0.03, 12, 0.0001];
    for (const v of values) {
      observe(v);
      main.requests.labels(theirs).observe(v);
    }
    const series = async (status: string) => {
      const found = (await main.requests.get()).values.filter((v) => v.labels.status === status && v.labels.method === 'HEAD');
      return found.map((v) => ({ name: v.metricName, le: (v.labels as Record<string, unknown>).le, value: v.value }));
    };
    expect(await series('302')).toEqual(await series('301'));
    expect((await series('302')).find((v) => v.name?.endsWith('_count'))?.value).toBe(values.length);
    main.requests.reset();
    observe(0.002);
    observe(0.002);
    expect((await series('302')).filter((v) => v.name?.endsWith('_count') || v.le === 0.0025).map((v) => v.value)).toEqual([2, 2]);
  });

  it('merge the link thread’s request series under one metric, with the process metrics once', async () => {
    const main = createMetrics('gateway');
    const thread = linkThreadRegistry();
    const before = requestCount(await exposition(), api) ?? 0;
    main.requests.labels({ listener: 'api', method: 'GET', route: '/health', status: '200' }).observe(0.002);
    thread.requests.labels({ listener: 'link', method: 'GET', route: '/:code', status: '302' }).observe(0.0004);
    thread.requests.labels({ listener: 'link', method: 'GET', route: '/:code', status: '302' }).observe(0.0004);
    const text = await exposition([() => thread.registry.getMetricsAsJSON()]);
    expect(text.match(/^# TYPE http_request_duration_seconds histogram$/gm)).toHaveLength(1);
    expect(requestCount(text, api)).toBe(before + 1);
    expect(requestCount(text, link)).toBe(2);
    expect(text.match(/^process_resident_memory_bytes\{app="gateway"\} \d+$/gm)).toHaveLength(1);
  });
});
