import { readStackFile } from '@feedback/dev-stack';
import { beforeAll, describe, expect, it } from 'vitest';
import { byKind, find, read, render, renderChart, type K8sObject } from './chart-render.js';

/**
 * The chart's monitoring objects (metrics.grafanaDashboard, metrics.prometheusRule): rendered only when
 * asked, and every PromQL expression in them reads only metrics some app of the running local stack
 * actually exports (scraped from each app's metrics port, as Prometheus would). The rule itself is
 * validated against the Prometheus Operator's CRD and by promtool in infra/k8s-tools.sh rules.
 */
let helm: string;
let defaults: K8sObject[];
let full: K8sObject[];
beforeAll(() => void ({ helm, defaults, full } = renderChart()), 600_000);

const dashboardJson = read('deploy/helm/feedback/files/grafana-dashboard.json');

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}
const dashboard = JSON.parse(dashboardJson) as { uid: string; panels: Panel[] };
const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr })));

const ruleExprs = (objects: K8sObject[]) =>
  byKind(objects, 'PrometheusRule').flatMap((r) =>
    r.spec.groups.flatMap((g: { rules: { alert: string; expr: string }[] }) =>
      g.rules.map((x) => ({ where: `alert ${x.alert}`, expr: x.expr })),
    ),
  );

const PROMQL_WORDS = new Set([
  ...['sum', 'min', 'max', 'avg', 'count', 'rate', 'increase', 'irate', 'histogram_quantile', 'label_values'],
  ...['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan'],
]);

/** The metric names an expression reads: identifiers outside label matchers, ranges and strings that are neither functions nor keywords. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w.$])([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    if (m[2] || PROMQL_WORDS.has(m[1]!.toLowerCase())) continue;
    names.add(m[1]!);
  }
  return [...names];
}

/** Every metric family the stack's apps register, from the `# TYPE` lines of one scrape of each. */
async function exportedFamilies(): Promise<Map<string, string>> {
  const stack = readStackFile();
  if (!stack.metrics) throw new Error('.local/stack.json lists no metrics addresses: restart the apps (infra/apps.sh) to write them');
  const families = new Map<string, string>();
  for (const [app, url] of Object.entries(stack.metrics)) {
    const res = await fetch(`${url}/metrics`);
    if (res.status !== 200) throw new Error(`${app}'s ${url}/metrics answered ${res.status}`);
    for (const [, name, type] of (await res.text()).matchAll(/^# TYPE (\S+) (\S+)$/gm)) families.set(name!, type!);
  }
  return families;
}

/** A series name as Prometheus stores it exists when its family does (a histogram's _bucket/_sum/_count, a summary's _sum/_count). */
function exported(families: Map<string, string>, name: string): boolean {
  if (families.has(name)) return true;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  const type = m && families.get(m[1]!);
  return type === 'histogram' || (type === 'summary' && m![2] !== 'bucket');
}

describe('monitoring objects are rendered only when asked', () => {
  it('defaults: neither a dashboard ConfigMap nor a PrometheusRule', () => {
    expect(byKind(defaults, 'PrometheusRule')).toEqual([]);
    expect(defaults.filter((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('grafana-dashboard'))).toEqual([]);
  });

  it('full values: the dashboard in a ConfigMap for Grafana’s sidecar, byte for byte the file', () => {
    const cm = find(full, 'ConfigMap', 'feedback-grafana-dashboard');
    expect(cm.metadata.labels.grafana_dashboard).toBe('1');
    expect(cm.metadata.annotations).toEqual({ grafana_folder: 'Feedback' });
    expect(Object.keys(cm.data)).toEqual(['feedback-service.json']);
    expect(cm.data['feedback-service.json']).toBe(dashboardJson);
  });

  it('full values: one PrometheusRule with the six alerts, its values applied', () => {
    const [rule, ...more] = byKind(full, 'PrometheusRule');
    expect(more).toEqual([]);
    expect(rule.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(rule.metadata.labels.release).toBe('kube-prometheus-stack');
    const alerts = rule.spec.groups.flatMap((g: { rules: { alert: string }[] }) => g.rules);
    expect(alerts.map((a: { alert: string }) => a.alert).sort()).toEqual([
      'FeedbackApiErrorRate',
      'FeedbackApiLatencyP99',
      'FeedbackDeadLetters',
      'FeedbackOutboxBacklogAge',
      'FeedbackSmsDispatchLag',
      'FeedbackSmsFailureRate',
    ]);
    const lag = alerts.find((a: { alert: string }) => a.alert === 'FeedbackSmsDispatchLag');
    expect(lag.expr).toBe('sum(kafka_consumer_lag{namespace="feedback",app="messaging",group="messaging-sms-dispatch"}) > 50000');
    expect(lag.for).toBe('30m');
  });

  it('a values file that misspells a threshold is refused', () => {
    expect(() => render(helm, ['--set', 'metrics.prometheusRule.thresholds.apiErrorRate=0.1'])).toThrow(/apiErrorRate/);
    expect(() => render(helm, ['--set', 'metrics.prometheusRule.for.apiErrorRate=ten minutes'])).toThrow(/apiErrorRate/);
  });
});

describe('the dashboard', () => {
  it('has a panel for each thing an operator watches', () => {
    const all = dashboardExprs.map((e) => e.expr).join('\n');
    for (const metric of [
      'http_request_duration_seconds_count',
      'http_request_duration_seconds_bucket',
      'grpc_server_handled_total',
      'grpc_server_handling_seconds_bucket',
      'sms_accepted_total',
      'sms_sent_total',
      'sms_failed_total',
      'sms_delivery_reports_total',
      'rate_limit_refused_total',
      'rate_limit_fallback_active',
      'kafka_consumer_lag',
      'kafka_consumer_dead_lettered_total',
      'outbox_pending',
      'outbox_oldest_age_seconds',
    ])
      expect(all, metric).toContain(metric);
    expect(dashboard.uid).toBe('feedback-service');
  });
});

describe('every expression reads metrics the apps export', () => {
  it('the name reader finds metric names and nothing else', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (route, le) (rate(http_request_duration_seconds_bucket{app="gateway",route!~"/x|y"}[5m]))) > 2',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('sum(rate(a_total{x="rate(b)"}[5m])) / (sum(rate(b_total[$__rate_interval])) + max(c)) > 0.1')).toEqual([
      'a_total',
      'b_total',
      'c',
    ]);
  });

  it('scraped from the running stack: the dashboard’s and the alerts’ metric names all exist', async () => {
    const families = await exportedFamilies();
    // The scrape found the apps' metrics at all (a broken scrape must not pass as "nothing missing").
    expect(families.get('sms_sent_total')).toBe('counter');
    expect(families.get('http_request_duration_seconds')).toBe('histogram');
    const exprs = [...dashboardExprs, ...ruleExprs(full)];
    expect(exprs.length).toBeGreaterThan(15);
    const missing = exprs.flatMap(({ where, expr }) =>
      metricNames(expr)
        .filter((name) => !exported(families, name))
        .map((name) => `${where}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});
