import { beforeAll, describe, expect, it } from 'vitest';
import { byKind, helmBin, MONITORING_APIS, render, renderNotes, valuesFile, type K8sObject } from './chart-render.js';

/**
 * The CRD-backed parts (PodMonitor, PrometheusRule) render only where the cluster serves their API: on a
 * cluster without the Prometheus Operator's CRDs an install with them enabled would fail ("no matches for
 * kind"). NOTES.txt then names each part left out and why.
 */
let helm: string;
let without: K8sObject[];
let withApis: K8sObject[];
beforeAll(() => {
  helm = helmBin();
  without = render(helm, valuesFile('full-values.yaml'));
  withApis = render(helm, [...valuesFile('full-values.yaml'), ...MONITORING_APIS]);
}, 600_000);

describe('PodMonitor and PrometheusRule gated on their API', () => {
  it('enabled but the API missing: neither object, the rest of the chart still renders', () => {
    expect(byKind(without, 'PodMonitor')).toEqual([]);
    expect(byKind(without, 'PrometheusRule')).toEqual([]);
    expect(byKind(without, 'Deployment')).toHaveLength(7);
  });

  it('enabled and the API served: each object', () => {
    expect(byKind(withApis, 'PodMonitor')).toHaveLength(1);
    expect(byKind(withApis, 'PrometheusRule')).toHaveLength(1);
  });

  it('one API served, the other not: only that one', () => {
    const monitorOnly = render(helm, [...valuesFile('full-values.yaml'), '--api-versions', 'monitoring.coreos.com/v1/PodMonitor']);
    expect(byKind(monitorOnly, 'PodMonitor')).toHaveLength(1);
    expect(byKind(monitorOnly, 'PrometheusRule')).toEqual([]);
  });
});

describe('NOTES.txt says what was left out and why', () => {
  it('a line per part enabled whose API is missing', () => {
    const notes = renderNotes(helm, valuesFile('full-values.yaml'));
    expect(notes).toContain('LEFT OUT');
    expect(notes).toMatch(
      /metrics\.serviceMonitor\.enabled: no PodMonitor made: the cluster does not serve monitoring\.coreos\.com\/v1 PodMonitor/,
    );
    expect(notes).toMatch(
      /metrics\.prometheusRule\.enabled: no PrometheusRule made: the cluster does not serve monitoring\.coreos\.com\/v1 PrometheusRule/,
    );
  });

  it('nothing left out with the APIs served, nor when the parts are off (the defaults)', () => {
    expect(renderNotes(helm, [...valuesFile('full-values.yaml'), ...MONITORING_APIS])).not.toContain('LEFT OUT');
    const defaults = renderNotes(helm);
    expect(defaults).not.toContain('LEFT OUT');
    expect(defaults).toContain('is deployed as release feedback in feedback');
  });
});
