import { createLogger } from '@feedback/kit-core/runtime';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counter, startMetricsListener, type MetricsListener } from '../src/index.js';

const logger = createLogger('kit-metrics-test', 'silent');

describe('metrics listener', () => {
  let listener: MetricsListener;
  beforeAll(async () => {
    listener = await startMetricsListener({ app: 'unit', host: '127.0.0.1', port: 0, logger });
  });
  afterAll(() => listener.close());

  it('serves the registry as Prometheus text, every series labelled with the app', async () => {
    counter({ name: 'kit_metrics_test_things_total', help: 'things', labelNames: ['kind'] }).inc({ kind: 'a' }, 3);
    const res = await fetch(`${listener.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('kit_metrics_test_things_total{kind="a",app="unit"} 3');
    // Node's process metrics come with it.
    expect(text).toMatch(/^process_cpu_user_seconds_total\{app="unit"\} \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{app="unit"\} /m);
  });

  it('answers HEAD /metrics with headers only', async () => {
    const res = await fetch(`${listener.url}/metrics`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await res.text()).toBe('');
  });

  it.each([
    ['GET', '/'],
    ['GET', '/metrics/extra'],
    ['GET', '/health'],
    ['POST', '/metrics'],
    ['DELETE', '/metrics'],
  ])('answers %s %s with 404 in the error shape', async (method, path) => {
    const res = await fetch(`${listener.url}${path}`, { method });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      error_message: 'Requested resource not found!',
      data: 'Requested resource not found!',
      code: 13002,
      errors: null,
    });
  });

  it('takes a query string on /metrics', async () => {
    const res = await fetch(`${listener.url}/metrics?name[]=x`);
    expect(res.status).toBe(200);
  });

  it("merges another thread's metrics into the same exposition", async () => {
    const other = new Registry();
    other.setDefaultLabels({ app: 'unit' });
    const c = new (await import('prom-client')).Counter({ name: 'kit_metrics_test_other_total', help: 'x', registers: [other] });
    c.inc(7);
    listener.include(() => other.getMetricsAsJSON());
    const text = await (await fetch(`${listener.url}/metrics`)).text();
    expect(text).toContain('kit_metrics_test_other_total{app="unit"} 7');
    expect(text).toContain('kit_metrics_test_things_total{kind="a",app="unit"} 3');
    // A process gauge both could report appears once.
    expect(text.match(/^process_start_time_seconds\{/gm)).toHaveLength(1);
  });

  it('answers 500 in the error shape when a source fails, and keeps serving', async () => {
    const broken = await startMetricsListener({ app: 'unit', host: '127.0.0.1', port: 0, logger });
    broken.include(() => Promise.reject(new Error('thread gone')));
    try {
      const res = await fetch(`${broken.url}/metrics`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        error_message: 'Internal server error',
        data: 'Internal server error',
        code: 13008,
        errors: null,
      });
    } finally {
      await broken.close();
    }
  });

  it('close() stops listening and can be called again', async () => {
    const l = await startMetricsListener({ app: 'unit', host: '127.0.0.1', port: 0, logger });
    await (await fetch(`${l.url}/metrics`)).text(); // a kept-alive connection
    await l.close();
    await l.close();
    await expect(fetch(`${l.url}/metrics`)).rejects.toThrow();
  });
});
