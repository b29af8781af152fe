import { beforeAll, describe, expect, it } from 'vitest';
import { APPS, byKind, find, read, render, renderChart, template, yaml, type K8sObject } from './chart-render.js';

/**
 * Metrics in the chart: every Deployment has a `metrics` port (METRICS_PORT) and prometheus.io/*
 * annotations pointing at it, its NetworkPolicy admits that port from the monitoring namespace only,
 * no Service and no public listener carries it, and a PodMonitor is rendered only when asked.
 */
let helm: string;
let defaults: K8sObject[];
let full: K8sObject[];
beforeAll(() => void ({ helm, defaults, full } = renderChart()), 600_000);

type Rule = { ports?: { port: string | number }[]; from?: unknown[] };
const podOf = (objects: K8sObject[], app: string) => find(objects, 'Deployment', `feedback-${app}`).spec.template;
const renderings = () =>
  [
    ['defaults', defaults, 9464, 'monitoring'],
    ['full values', full, 9102, 'observability'],
  ] as const;

describe('every app has a metrics port of its own', () => {
  it.each(APPS)('%s: a `metrics` container port, METRICS_PORT, and prometheus.io annotations pointing at it', (app) => {
    for (const [, objects, port] of renderings()) {
      const pod = podOf(objects, app);
      const c = pod.spec.containers[0];
      expect(c.ports.filter((p: { name: string }) => p.name === 'metrics')).toEqual([
        { name: 'metrics', containerPort: port, protocol: 'TCP' },
      ]);
      expect(c.env.filter((e: { name: string }) => e.name === 'METRICS_PORT')).toEqual([{ name: 'METRICS_PORT', value: String(port) }]);
      expect(pod.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': '/metrics',
      });
    }
  });

  it('metrics.podAnnotations false: no prometheus.io annotations, the port stays', () => {
    const objects = render(helm, ['--set', 'metrics.podAnnotations=false']);
    for (const app of APPS) {
      expect(Object.keys(podOf(objects, app).metadata.annotations).filter((k) => k.startsWith('prometheus.io/'))).toEqual([]);
      expect(podOf(objects, app).spec.containers[0].ports.map((p: { name: string }) => p.name)).toContain('metrics');
    }
  });

  it('refuses a metrics port that an app already listens on', () => {
    const res = template(helm, ['--set', 'metrics.port=8091']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('metrics.port 8091 is the dlr port of messaging: pick another');
  });

  it('no Service carries the metrics port: the public listeners never serve /metrics', () => {
    for (const [, objects, port] of renderings()) {
      for (const svc of byKind(objects, 'Service')) {
        for (const p of svc.spec.ports) {
          expect(p.targetPort).not.toBe('metrics');
          expect(p.targetPort).not.toBe(port);
          expect(p.port).not.toBe(port);
        }
      }
    }
  });
});

describe('network policies: the metrics port from the monitoring namespace only', () => {
  it.each(APPS)('%s', (app) => {
    for (const [, objects, , namespace] of renderings()) {
      const rules: Rule[] = find(objects, 'NetworkPolicy', `feedback-${app}`).spec.ingress;
      const metrics = rules.filter((r) => (r.ports ?? []).some((p) => p.port === 'metrics'));
      expect(metrics).toEqual([
        {
          ports: [{ port: 'metrics', protocol: 'TCP' }],
          from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } }],
        },
      ]);
      // A rule without ports would admit its peers to every port, the metrics port included.
      expect(rules.every((r) => r.ports !== undefined && r.ports.length > 0)).toBe(true);
    }
  });

  it('no monitoring namespace: no rule admits anyone to the metrics port', () => {
    const objects = render(helm, ['--set', 'networkPolicy.monitoringNamespace=']);
    for (const app of APPS) {
      const rules: Rule[] = find(objects, 'NetworkPolicy', `feedback-${app}`).spec.ingress;
      expect(rules.flatMap((r) => r.ports ?? []).map((p) => p.port)).not.toContain('metrics');
    }
  });
});

describe('PodMonitor (metrics.serviceMonitor)', () => {
  it('is not rendered by default', () => {
    expect(byKind(defaults, 'PodMonitor')).toEqual([]);
    expect(byKind(defaults, 'ServiceMonitor')).toEqual([]);
  });

  it("selects every app's pods of the release by their metrics port when enabled", () => {
    const [monitor, ...more] = byKind(full, 'PodMonitor');
    expect(more).toEqual([]);
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.name).toBe('feedback');
    expect(monitor.metadata.labels.release).toBe('kube-prometheus-stack');
    expect(monitor.spec).toEqual({
      selector: { matchLabels: { 'app.kubernetes.io/name': 'feedback', 'app.kubernetes.io/instance': 'feedback' } },
      podMetricsEndpoints: [{ port: 'metrics', path: '/metrics', interval: '15s', scrapeTimeout: '5s' }],
    });
    // Its selector matches every app's pods.
    for (const app of APPS) expect(podOf(full, app).metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
  });
});

describe('docker-compose.yml: every app has its metrics listener, published where ./stack up has it', () => {
  const compose = yaml.parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, K8sObject> };
  const local = JSON.parse(read('infra/ports.json')) as Record<string, number>;

  it.each(APPS)('%s', (app) => {
    const svc = compose.services[app];
    expect(svc.environment.METRICS_PORT).toBe('9464');
    expect(svc.ports).toContain(`127.0.0.1:${local[`${app.toUpperCase()}_METRICS_PORT`]}:9464`);
  });
});
