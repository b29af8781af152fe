import { beforeAll, describe, expect, it } from 'vitest';
import { APPS, byKind, find, read, render, renderChart, type K8sObject } from './chart-render.js';

/**
 * `helm test`: the chart's test hook (templates/tests/checks.yaml) is a Pod under the restricted profile,
 * running files/helm-test.mjs with the image's node against the API listener and every gRPC service.
 */
const SERVICES = APPS.filter((a) => a !== 'gateway');
let helm: string;
let defaults: K8sObject[];
let full: K8sObject[];
beforeAll(() => void ({ helm, defaults, full } = renderChart()), 600_000);

const hook = (objects: K8sObject[]) => find(objects, 'Pod', 'feedback-test');
const env = (pod: K8sObject) =>
  Object.fromEntries((pod.spec.containers[0].env as { name: string; value: string }[]).map((e) => [e.name, e.value]));

describe('the helm test hook', () => {
  it('is a test hook Pod, replaced on a rerun and removed when it passed, labelled component test', () => {
    for (const objects of [defaults, full]) {
      const pod = hook(objects);
      expect(pod.metadata.annotations).toEqual({
        'helm.sh/hook': 'test',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      expect(pod.metadata.labels['app.kubernetes.io/component']).toBe('test');
      expect(pod.spec.restartPolicy).toBe('Never');
      expect(byKind(objects, 'Pod')).toHaveLength(1);
    }
  });

  it('runs under the restricted profile: non-root, RuntimeDefault seccomp, ALL dropped, no escalation, read-only root', () => {
    for (const objects of [defaults, full]) {
      const pod = hook(objects);
      expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.spec.automountServiceAccountToken).toBe(false);
      for (const key of ['hostNetwork', 'hostPID', 'hostIPC']) expect(pod.spec[key]).toBeUndefined();
      const [container, ...more] = pod.spec.containers;
      expect(more).toEqual([]);
      expect(container.securityContext).toMatchObject({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(container.securityContext.privileged).toBeUndefined();
      expect(container.securityContext.capabilities.add).toBeUndefined();
      expect(container.resources.limits.memory).toBeDefined();
    }
  });

  it("runs files/helm-test.mjs with the apps' image and node, from /app", () => {
    for (const objects of [defaults, full]) {
      const container = hook(objects).spec.containers[0];
      expect(container.image).toBe(find(objects, 'Deployment', 'feedback-gateway').spec.template.spec.containers[0].image);
      expect(container.workingDir).toBe('/app');
      expect(container.command).toEqual(['node', '--input-type=module', '-e', read('deploy/helm/feedback/files/helm-test.mjs')]);
    }
  });

  it('names the API listener and every gRPC service, by the headless Service the callers use', () => {
    const { API_URL, GRPC_SERVICES } = env(hook(defaults));
    expect(API_URL).toBe('http://feedback-gateway.feedback.svc.cluster.local:80');
    const named = Object.fromEntries(GRPC_SERVICES!.split(',').map((entry) => entry.split('=')));
    expect(Object.keys(named).sort()).toEqual([...SERVICES].sort());
    for (const app of SERVICES) {
      const svc = find(defaults, 'Service', `feedback-${app}-grpc`);
      expect(named[app]).toBe(`feedback-${app}-grpc.feedback.svc.cluster.local:${svc.spec.ports[0].port}`);
    }
  });

  it('follows the table: a switched-off app is not checked, a moved port is', () => {
    const objects = render(helm, ['--set', 'apps.flow.enabled=false', '--set', 'apps.survey.ports.grpc.servicePort=7000']);
    const { GRPC_SERVICES } = env(hook(objects));
    expect(GRPC_SERVICES).not.toMatch(/\bflow=/);
    expect(GRPC_SERVICES).toContain('survey=feedback-survey-grpc.feedback.svc.cluster.local:7000');
  });

  it('tests.enabled=false: no hook, and no NetworkPolicy rule for it', () => {
    const objects = render(helm, ['--set', 'tests.enabled=false']);
    expect(byKind(objects, 'Pod')).toEqual([]);
    const peers = byKind(objects, 'NetworkPolicy').flatMap((p) => (p.spec.ingress ?? []).flatMap((r: K8sObject) => r.from ?? []));
    expect(peers.filter((peer: K8sObject) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component'] === 'test')).toEqual([]);
  });
});
