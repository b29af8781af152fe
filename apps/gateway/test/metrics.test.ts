import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/http/metrics.js';

/** The request count of the series with exactly these labels (in whatever order the text has them). */
function requestCount(text: string, labels: Record<string, string>): number | undefined {
  for (const [, set, value] of text.matchAll(/^http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm)) {
    const parsed = Object.fromEntries([...set!.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
    if (JSON.stringify(Object.entries(parsed).sort()) === JSON.stringify(Object.entries(labels).sort())) return Number(value);
  }
  return undefined;
}
const api = { listener: 'api', method: 'GET', route: '/health', status: '200', service: 'gateway' };
const link = { listener: 'link', method: 'GET', route: '/:code', status: '302', service: 'gateway' };

// /metrics of a process whose link listener runs in a second thread: one exposition of both.
describe('metrics exposition', () => {
  it('serves the main registry alone when no thread is included', async () => {
    const main = createMetrics('gateway');
    main.requests.labels({ listener: 'api', method: 'GET', route: '/health', status: '200' }).observe(0.002);
    const text = await main.exposition();
    expect(requestCount(text, api)).toBe(1);
    expect(text).toMatch(/^process_resident_memory_bytes\{service="gateway"\} \d+$/m);
  });

  it('merges an included thread’s request series under one metric, with the process metrics once', async () => {
    const main = createMetrics('gateway');
    const thread = createMetrics('gateway', { processMetrics: false });
    main.requests.labels({ listener: 'api', method: 'GET', route: '/health', status: '200' }).observe(0.002);
    thread.requests.labels({ listener: 'link', method: 'GET', route: '/:code', status: '302' }).observe(0.0004);
    thread.requests.labels({ listener: 'link', method: 'GET', route: '/:code', status: '302' }).observe(0.0004);
    main.include(() => thread.registry.getMetricsAsJSON());
    const text = await main.exposition();
    expect(text.match(/^# TYPE http_request_duration_seconds histogram$/gm)).toHaveLength(1);
    expect(requestCount(text, api)).toBe(1);
    expect(requestCount(text, link)).toBe(2);
    expect(text.match(/^process_resident_memory_bytes\{service="gateway"\} \d+$/gm)).toHaveLength(1);
    expect(await thread.registry.metrics()).not.toContain('process_resident_memory_bytes');
  });
});
