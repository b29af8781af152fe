import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPS, byKind, find, read, render, renderChart, ROOT, template, valuesFile, yaml, type K8sObject } from './chart-render.js';

/**
 * The Helm chart (deploy/helm/feedback) as Kubernetes gets it: `helm template` with the defaults and with
 * ci/full-values.yaml (everything on, many replicas, the operator's own Secrets), asserted object by
 * object. ./stack test also validates the same renderings against the Kubernetes API schemas
 * (infra/k8s-tools.sh check).
 */
let helm: string;
let defaults: K8sObject[];
let full: K8sObject[];
beforeAll(() => void ({ helm, defaults, full } = renderChart()), 600_000);

const SERVICES = ['survey', 'messaging', 'file', 'flow', 'shortener', 'webhooks'] as const;
const GRPC_PORTS = { flow: 50052, survey: 50053, file: 50054, shortener: 50055, messaging: 50056, webhooks: 50057 } as const;
/** Who calls whom: the gateway every service; messaging survey, shortener and file; survey flow. */
const CALLERS = {
  survey: ['gateway', 'messaging'],
  messaging: ['gateway'],
  file: ['gateway', 'messaging'],
  flow: ['gateway', 'messaging', 'survey'],
  shortener: ['gateway', 'messaging'],
  webhooks: ['gateway'],
} as const;
const appVersion = (yaml.parse(read('deploy/helm/feedback/Chart.yaml')) as { appVersion: string }).appVersion;
const names = (objects: K8sObject[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
const podOf = (objects: K8sObject[], app: string) => find(objects, 'Deployment', `feedback-${app}`).spec.template;
const renderings = () =>
  [
    ['defaults', defaults],
    ['full values', full],
  ] as const;

describe('the chart renders one Deployment per app and what each needs', () => {
  it('defaults: exactly these objects', () => {
    const perApp = (kind: string) => APPS.map((a) => `${kind}/feedback-${a}`);
    expect(names(defaults)).toEqual(
      [
        ...perApp('Deployment'),
        // The HTTP listeners behind a ClusterIP, each gRPC port behind a headless Service of its own.
        'Service/feedback-gateway',
        'Service/feedback-messaging',
        ...SERVICES.map((a) => `Service/feedback-${a}-grpc`),
        ...perApp('PodDisruptionBudget'),
        ...perApp('NetworkPolicy'),
        'NetworkPolicy/feedback-webhooks-egress',
        'HorizontalPodAutoscaler/feedback-gateway',
        'HorizontalPodAutoscaler/feedback-messaging',
        'ServiceAccount/feedback',
        'Secret/feedback-credentials',
        // Each app's own settings, nothing of the others'.
        ...APPS.map((a) => `ConfigMap/feedback-${a}-config`),
        'ConfigMap/feedback-sms-limits',
        // The `helm test` hook (templates/tests/checks.yaml).
        'Pod/feedback-test',
      ].sort(),
    );
  });

  it('full values: the Ingresses too, and no Secret of the chart (every credential in the operator\u2019s own)', () => {
    expect(names(full)).toContain('Ingress/feedback-api');
    expect(names(full)).toContain('Ingress/feedback-links');
    expect(byKind(full, 'Secret')).toEqual([]);
    expect(byKind(full, 'Deployment')).toHaveLength(APPS.length);
  });

  it.each(APPS)('%s: the one image, pinned (appVersion by default, never latest), its own command', (app) => {
    const image = podOf(defaults, app).spec.containers[0].image as string;
    expect(image).toBe(`ghcr.io/your-org/feedback-service:${appVersion}`);
    expect(podOf(full, app).spec.containers[0].image).toBe(
      'registry.example.com/feedback/feedback-service:0.1.0@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    );
    for (const [, objects] of renderings()) {
      const container = podOf(objects, app).spec.containers[0];
      expect(container.image).not.toMatch(/:latest(@|$)/);
      expect(container.command).toEqual(['node', `/app/apps/${app}/dist/main.js`]);
    }
    expect(podOf(full, app).spec.imagePullSecrets).toEqual([{ name: 'registry-example-com' }]);
  });

  it('`latest` is refused, by the schema and by the template', () => {
    const res = template(helm, ['--set', 'image.tag=latest']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('image.tag');
  });
});

describe('every pod runs restricted', () => {
  it.each(APPS)(
    '%s: non-root numeric user, read-only root with /tmp an emptyDir, no privilege, no capability, RuntimeDefault seccomp, no API token',
    (app) => {
      for (const [, objects] of renderings()) {
        const pod = podOf(objects, app).spec;
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
        expect(pod.automountServiceAccountToken).toBe(false);
        expect(pod.hostNetwork ?? false).toBe(false);
        expect(pod.containers).toHaveLength(1);
        const c = pod.containers[0];
        expect(c.securityContext).toEqual({
          runAsNonRoot: true,
          runAsUser: 1000,
          runAsGroup: 1000,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        });
        expect(Number.isInteger(c.securityContext.runAsUser) && c.securityContext.runAsUser > 0).toBe(true);
        const tmp = c.volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/tmp');
        expect(pod.volumes.find((v: { name: string }) => v.name === tmp.name)).toEqual({ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } });
        // Nothing else is writable: every other mount is read-only.
        expect(c.volumeMounts.filter((m: { mountPath: string; readOnly?: boolean }) => m.mountPath !== '/tmp' && !m.readOnly)).toEqual([]);
      }
    },
  );

  it('the ServiceAccount mounts no token either', () => {
    expect(find(defaults, 'ServiceAccount', 'feedback').automountServiceAccountToken).toBe(false);
    for (const app of APPS) expect(podOf(defaults, app).spec.serviceAccountName).toBe('feedback');
    for (const app of APPS) expect(podOf(full, app).spec.serviceAccountName).toBe('feedback-apps');
  });
});

describe('probes, resources, shutdown, spreading', () => {
  it.each(SERVICES)('%s: startup, readiness and liveness are native gRPC probes of grpc.health.v1 on its gRPC port', (app) => {
    const c = podOf(defaults, app).spec.containers[0];
    expect(c.ports).toContainEqual({ name: 'grpc', containerPort: GRPC_PORTS[app], protocol: 'TCP' });
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
      expect(c[probe].grpc, probe).toEqual({ port: GRPC_PORTS[app] });
    expect(c.livenessProbe.failureThreshold * c.livenessProbe.periodSeconds).toBeGreaterThanOrEqual(30);
  });

  it('gateway: /health for startup and liveness, /ready for readiness, on the API port', () => {
    const c = podOf(defaults, 'gateway').spec.containers[0];
    expect(c.ports).toEqual([
      { name: 'api', containerPort: 8080, protocol: 'TCP' },
      { name: 'links', containerPort: 8081, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
    ]);
    expect(c.startupProbe.httpGet).toEqual({ path: '/health', port: 'api' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'api' });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/health', port: 'api' });
  });

  it.each(APPS)('%s: requests CPU and memory, a memory limit', (app) => {
    for (const [, objects] of renderings()) {
      const { requests, limits } = podOf(objects, app).spec.containers[0].resources;
      expect(requests.cpu).toMatch(/^\d+m?$/);
      expect(requests.memory).toMatch(/^\d+(Mi|Gi)$/);
      expect(limits.memory).toMatch(/^\d+(Mi|Gi)$/);
    }
  });

  it.each(APPS)('%s: a preStop pause the image can run, and a grace period covering it and the 25 s drain', (app) => {
    const pod = podOf(defaults, app).spec;
    // The image has node but no shell tools: the pause is node's own timer.
    expect(pod.containers[0].lifecycle.preStop).toEqual({ exec: { command: ['node', '-e', 'setTimeout(() => {}, 5000)'] } });
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(5 + 25);
    const fullPod = podOf(full, app).spec;
    expect(fullPod.containers[0].lifecycle.preStop).toEqual({ exec: { command: ['node', '-e', 'setTimeout(() => {}, 10000)'] } });
    expect(fullPod.terminationGracePeriodSeconds).toBe(45);
  });

  it('the kubelet\u2019s own sleep action on Kubernetes 1.30+, refused before', () => {
    const sleep = ['--set', 'shutdown.preStopMode=sleep'];
    const onNew = render(helm, [...sleep, '--kube-version', '1.30.0']);
    for (const app of APPS) expect(podOf(onNew, app).spec.containers[0].lifecycle.preStop).toEqual({ sleep: { seconds: 5 } });
    const onOld = template(helm, [...sleep, '--kube-version', '1.29.9']);
    expect(onOld.status).not.toBe(0);
    expect(onOld.stderr).toContain('preStopMode sleep needs Kubernetes 1.30');
  });

  it('a grace period shorter than the pause plus the drain is refused', () => {
    const res = template(helm, ['--set', 'shutdown.terminationGracePeriodSeconds=20']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('terminationGracePeriodSeconds');
  });

  it.each(APPS)('%s: spread over zones and nodes, counting only its own pods', (app) => {
    const template = podOf(defaults, app);
    const selector = find(defaults, 'Deployment', `feedback-${app}`).spec.selector.matchLabels;
    expect(template.metadata.labels).toMatchObject(selector);
    expect(template.spec.topologySpreadConstraints.map((t: { topologyKey: string }) => t.topologyKey)).toEqual([
      'topology.kubernetes.io/zone',
      'kubernetes.io/hostname',
    ]);
    for (const t of template.spec.topologySpreadConstraints) {
      expect(t.labelSelector).toEqual({ matchLabels: selector });
      expect(t.whenUnsatisfiable).toBe('ScheduleAnyway');
    }
    expect(podOf(full, app).spec.topologySpreadConstraints[0].whenUnsatisfiable).toBe('DoNotSchedule');
  });
});

describe('availability and scaling', () => {
  it.each(APPS)('%s: a PodDisruptionBudget selecting exactly its pods', (app) => {
    for (const [, objects] of renderings()) {
      const pdb = find(objects, 'PodDisruptionBudget', `feedback-${app}`);
      expect(pdb.spec.selector.matchLabels).toEqual(find(objects, 'Deployment', `feedback-${app}`).spec.selector.matchLabels);
    }
    expect(find(defaults, 'PodDisruptionBudget', `feedback-${app}`).spec).toMatchObject({ maxUnavailable: 1 });
  });

  it.each(APPS)(
    '%s: a rollout surges one ready pod at a time and lets clients connect to it (minReadySeconds) before the next old one goes',
    (app) => {
      const spec = find(defaults, 'Deployment', `feedback-${app}`).spec;
      expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
      expect(spec.minReadySeconds).toBe(5);
      expect(find(render(helm, ['--set', 'minReadySeconds=0']), 'Deployment', `feedback-${app}`).spec.minReadySeconds).toBe(0);
    },
  );

  it('full values: minAvailable wins over the default maxUnavailable', () => {
    expect(find(full, 'PodDisruptionBudget', 'feedback-gateway').spec).toEqual({
      minAvailable: 3,
      selector: find(full, 'Deployment', 'feedback-gateway').spec.selector,
    });
  });

  it('gateway and messaging scale on CPU (their Deployments leave the count to the autoscaler); the others have fixed replicas', () => {
    for (const app of ['gateway', 'messaging']) {
      const hpa = find(full, 'HorizontalPodAutoscaler', `feedback-${app}`);
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: `feedback-${app}` });
      expect(hpa.spec.minReplicas).toBe(4);
      expect(hpa.spec.metrics[0].resource).toEqual({ name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } });
      expect(find(full, 'Deployment', `feedback-${app}`).spec.replicas).toBeUndefined();
    }
    expect(
      Object.fromEntries(['survey', 'file', 'flow', 'shortener'].map((a) => [a, find(full, 'Deployment', `feedback-${a}`).spec.replicas])),
    ).toEqual({
      survey: 6,
      file: 4,
      flow: 6,
      shortener: 6,
    });
    const fixed = render(helm, ['--set', 'apps.gateway.autoscaling.enabled=false', '--set', 'apps.gateway.replicas=3']);
    expect(byKind(fixed, 'HorizontalPodAutoscaler').map((h) => h.metadata.name)).toEqual(['feedback-messaging']);
    expect(find(fixed, 'Deployment', 'feedback-gateway').spec.replicas).toBe(3);
  });
});

describe('network policies: each gRPC service takes calls from its callers only', () => {
  const podLabels = (objects: K8sObject[], app: string) => find(objects, 'Deployment', `feedback-${app}`).spec.selector.matchLabels;
  // The `helm test` Pod (tests.enabled, the default) is admitted besides the callers, by its own labels.
  const testPod = (objects: K8sObject[]) => {
    const pod = find(objects, 'Pod', 'feedback-test');
    expect(pod.metadata.labels['app.kubernetes.io/component']).toBe('test');
    const {
      'helm.sh/chart': _chart,
      'app.kubernetes.io/version': _v,
      'app.kubernetes.io/part-of': _p,
      'app.kubernetes.io/managed-by': _m,
      ...selector
    } = pod.metadata.labels;
    return { podSelector: { matchLabels: selector } };
  };

  it.each(SERVICES)('%s', (app) => {
    for (const [, objects] of renderings()) {
      const policy = find(objects, 'NetworkPolicy', `feedback-${app}`);
      expect(policy.spec.podSelector).toEqual({ matchLabels: podLabels(objects, app) });
      expect(policy.spec.policyTypes).toEqual(['Ingress']);
      const grpc = policy.spec.ingress.filter((r: { ports: { port: string }[] }) => r.ports.some((p) => p.port === 'grpc'));
      expect(grpc).toHaveLength(1);
      expect(grpc[0].ports).toEqual([{ port: 'grpc', protocol: 'TCP' }]);
      expect(grpc[0].from).toEqual([
        ...CALLERS[app].map((caller) => ({ podSelector: { matchLabels: podLabels(objects, caller) } })),
        testPod(objects),
      ]);
      // No rule admits anyone else to the gRPC port (a rule without `from` would admit every pod).
      const others = policy.spec.ingress.filter((r: K8sObject) => r !== grpc[0]);
      expect(others.every((r: { ports: { port: string }[] }) => r.ports.every((p) => p.port !== 'grpc'))).toBe(true);
    }
  });

  it('messaging: the delivery-report port from the configured SMS gateway only (full values), anyone by default', () => {
    const dlr = (objects: K8sObject[]) =>
      find(objects, 'NetworkPolicy', 'feedback-messaging').spec.ingress.find(
        (r: { ports: { port: string }[] }) => r.ports[0]!.port === 'dlr',
      );
    expect(dlr(defaults)).toEqual({ ports: [{ port: 'dlr', protocol: 'TCP' }] });
    expect(dlr(full).from).toEqual([{ ipBlock: { cidr: '203.0.113.0/24' } }, testPod(full)]);
  });

  it('gateway: its listeners from the ingress controller (full values); the metrics port from the monitoring namespace', () => {
    const rules = find(full, 'NetworkPolicy', 'feedback-gateway').spec.ingress;
    expect(rules).toEqual([
      {
        ports: [
          { port: 'api', protocol: 'TCP' },
          { port: 'links', protocol: 'TCP' },
        ],
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }, testPod(full)],
      },
      {
        ports: [{ port: 'metrics', protocol: 'TCP' }],
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } } }],
      },
    ]);
    const byDefault = find(defaults, 'NetworkPolicy', 'feedback-gateway').spec.ingress;
    expect(byDefault[1].from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
  });
});

describe('gRPC calls spread over pods: headless Services, dns:/// addresses', () => {
  const podLabels = (objects: K8sObject[], app: string) => find(objects, 'Deployment', `feedback-${app}`).spec.selector.matchLabels;

  it.each(SERVICES)('%s: its gRPC port behind a headless Service selecting its pods (as its PDB and NetworkPolicy do)', (app) => {
    for (const [, objects] of renderings()) {
      const svc = find(objects, 'Service', `feedback-${app}-grpc`);
      expect(svc.spec).toEqual({
        type: 'ClusterIP',
        clusterIP: 'None',
        publishNotReadyAddresses: false,
        selector: podLabels(objects, app),
        ports: [{ name: 'grpc', port: GRPC_PORTS[app], targetPort: 'grpc', protocol: 'TCP', appProtocol: 'grpc' }],
      });
      // A headless Service adds no address of its own: callers reach the pods, which the PDB counts
      // and the NetworkPolicy admits by the same labels and the same named container port.
      expect(find(objects, 'PodDisruptionBudget', `feedback-${app}`).spec.selector.matchLabels).toEqual(svc.spec.selector);
      const policy = find(objects, 'NetworkPolicy', `feedback-${app}`);
      expect(policy.spec.podSelector.matchLabels).toEqual(svc.spec.selector);
      expect(
        policy.spec.ingress.some((r: { ports: { port: string }[] }) => r.ports.some((p) => p.port === svc.spec.ports[0].targetPort)),
      ).toBe(true);
      expect(podOf(objects, app).spec.containers[0].ports).toContainEqual({
        name: 'grpc',
        containerPort: GRPC_PORTS[app],
        protocol: 'TCP',
      });
    }
  });

  it('every Service with a gRPC port is headless, and no other Service has one', () => {
    for (const [, objects] of renderings()) {
      for (const svc of byKind(objects, 'Service')) {
        const grpc = svc.spec.ports.some((p: { name: string; appProtocol?: string }) => p.name === 'grpc' || p.appProtocol === 'grpc');
        expect(svc.spec.clusterIP === 'None', svc.metadata.name).toBe(grpc);
        expect(svc.metadata.name.endsWith('-grpc'), svc.metadata.name).toBe(grpc);
      }
    }
  });

  it('messaging: delivery reports keep a ClusterIP Service of their own, which the default DLR_PUBLIC_URL names', () => {
    expect(find(defaults, 'Service', 'feedback-messaging').spec).toEqual({
      type: 'ClusterIP',
      selector: podLabels(defaults, 'messaging'),
      ports: [{ name: 'dlr', port: 8091, targetPort: 'dlr', protocol: 'TCP' }],
    });
    expect(find(defaults, 'ConfigMap', 'feedback-messaging-config').data.DLR_PUBLIC_URL).toBe(
      'http://feedback-messaging.feedback.svc:8091',
    );
  });

  it('every *_GRPC_ADDR is dns:/// of the headless Service, in the cluster domain (cluster.local unless set)', () => {
    // The gateway calls all six: its ConfigMap holds every address.
    const addrs = (objects: K8sObject[]) =>
      Object.fromEntries(
        Object.entries(find(objects, 'ConfigMap', 'feedback-gateway-config').data as Record<string, string>).filter(([k]) =>
          k.endsWith('_GRPC_ADDR'),
        ),
      );
    const expected = (domain: string) =>
      Object.fromEntries(
        SERVICES.map((a) => [`${a.toUpperCase()}_GRPC_ADDR`, `dns:///feedback-${a}-grpc.feedback.svc.${domain}:${GRPC_PORTS[a]}`]),
      );
    expect(addrs(defaults)).toEqual(expected('cluster.local'));
    expect(addrs(full)).toEqual(expected('k8s.acme.internal'));
    // No app overrides them with a plain host:port of its own.
    for (const [, objects] of renderings())
      for (const app of APPS)
        expect(
          podOf(objects, app).spec.containers[0].env.filter((e: { name: string }) => e.name.endsWith('_GRPC_ADDR')),
          app,
        ).toEqual([]);
  });

  it('clusterDomain must be a DNS name', () => {
    const res = template(helm, ['--set', 'clusterDomain=cluster.local:53']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('clusterDomain');
  });
});

describe('ingress, secrets, configuration', () => {
  it('full values: the API and the link domain (customer domains too) behind TLS, to the gateway\u2019s two listeners', () => {
    const api = find(full, 'Ingress', 'feedback-api');
    const links = find(full, 'Ingress', 'feedback-links');
    expect(api.spec.ingressClassName).toBe('nginx');
    expect(api.spec.tls).toEqual([{ secretName: 'feedback-api-tls', hosts: ['feedback.acme.example'] }]);
    expect(links.spec.tls).toEqual([{ secretName: 'feedback-links-tls', hosts: ['go.acme.example', 'links.customer-one.example'] }]);
    expect(api.spec.rules.map((r: { host: string }) => r.host)).toEqual(['feedback.acme.example']);
    expect(api.spec.rules[0].http.paths[0].backend).toEqual({ service: { name: 'feedback-gateway', port: { name: 'api' } } });
    expect(links.spec.rules[1].http.paths[0].backend).toEqual({ service: { name: 'feedback-gateway', port: { name: 'links' } } });
    expect(api.metadata.annotations).toMatchObject({
      'cert-manager.io/cluster-issuer': 'letsencrypt',
      'nginx.ingress.kubernetes.io/proxy-body-size': '1g',
    });
    expect(links.metadata.annotations).toEqual({ 'cert-manager.io/cluster-issuer': 'letsencrypt' });
    // Behind an ingress the gateway believes one hop of X-Forwarded-For (per-IP limits see the client).
    expect(find(full, 'ConfigMap', 'feedback-gateway-config').data.TRUST_PROXY).toBe('1');
    expect(find(defaults, 'ConfigMap', 'feedback-gateway-config').data.TRUST_PROXY).toBe('false');
  });

  it('every secret reference names a key that exists (the chart\u2019s Secret) or an operator Secret as configured', () => {
    const chartSecret = find(defaults, 'Secret', 'feedback-credentials');
    for (const app of APPS) {
      for (const e of podOf(defaults, app).spec.containers[0].env.filter((v: K8sObject) => v.valueFrom)) {
        const ref = e.valueFrom.secretKeyRef;
        expect(ref.name).toBe('feedback-credentials');
        if (!ref.optional) expect(Object.keys(chartSecret.data), `${app} ${e.name}`).toContain(ref.key);
      }
    }
    expect(Buffer.from(chartSecret.data['admin-token'], 'base64').toString()).toHaveLength(43);
    const refs = Object.fromEntries(
      APPS.flatMap((app) =>
        podOf(full, app)
          .spec.containers[0].env.filter((v: K8sObject) => v.valueFrom)
          .map((v: K8sObject) => [`${app}.${v.name}`, `${v.valueFrom.secretKeyRef.name}/${v.valueFrom.secretKeyRef.key}`]),
      ),
    );
    expect(refs).toMatchObject({
      'gateway.MONGO_URL': 'feedback-mongodb-feedback-app/connectionString.standard',
      'gateway.REDIS_URL': 'feedback-redis-url/REDIS_URL',
      'gateway.ADMIN_TOKEN': 'feedback-app-secrets/admin-token',
      'file.S3_ACCESS_KEY': 'feedback-minio-user/CONSOLE_ACCESS_KEY',
      'file.S3_SECRET_KEY': 'feedback-minio-user/CONSOLE_SECRET_KEY',
      'messaging.DLR_SECRET': 'feedback-app-secrets/dlr-secret',
      'messaging.SMS_PROVIDER_SECRETS_KEY': 'feedback-app-secrets/sms-provider-secrets-key',
      'messaging.SMS_HTTP_PROVIDER': 'feedback-sms-provider/SMS_HTTP_PROVIDER',
    });
  });

  it('no credential in a ConfigMap: the store URLs and keys are read from Secrets', () => {
    for (const [, objects] of renderings()) {
      for (const app of APPS) {
        const config = find(objects, 'ConfigMap', `feedback-${app}-config`).data;
        for (const key of ['MONGO_URL', 'REDIS_URL', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'ADMIN_TOKEN', 'DLR_SECRET', 'SMS_HTTP_PROVIDER']) {
          expect(config[key], `${app} ${key}`).toBeUndefined();
        }
      }
    }
  });

  it('the HTTP SMS provider: its JSON in the chart\u2019s Secret when given inline; refused when missing', () => {
    const inline = render(helm, valuesFile('inline-secrets-values.yaml'));
    const json = Buffer.from(find(inline, 'Secret', 'acme-credentials').data['sms-http-provider'], 'base64').toString();
    expect(JSON.parse(json)).toMatchObject({ url: 'https://sms.example.com/cgi-bin/sendsms', method: 'GET' });
    const res = template(helm, ['--set', 'smsProvider.kind=http']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('smsProvider.http');
  });
});

describe('the values schema refuses what it does not know', () => {
  it.each([
    ['a misspelt app', ['--set', 'apps.gatway.replicas=2'], 'gatway'],
    ['a misspelt key of an app', ['--set', 'apps.gateway.replicaCout=2'], 'replicaCout'],
    ['a misspelt setting', ['--set', 'config.logLevl=debug'], 'logLevl'],
    ['a misspelt ingress key', ['--set', 'ingress.api.tlsSecret=x'], 'tlsSecret'],
    ['an unknown log level', ['--set', 'config.logLevel=verbose'], 'logLevel'],
    ['a short admin token', ['--set', 'secrets.adminToken=short'], 'adminToken'],
    ['a secrets key that is not 32 bytes', ['--set', 'secrets.smsProviderSecretsKey=abc'], 'smsProviderSecretsKey'],
    ['tiers missing while enabled', ['--set-json', 'smsLimits.tiers=[]'], 'smsLimits'],
    // Kubernetes' own types (infra/chart-schema.ts copies them from its strict schemas).
    ['a misspelt container security field', ['--set', 'containerSecurityContext.readOnlyRootFilesytem=true'], 'readOnlyRootFilesytem'],
    ['a misspelt pod security field', ['--set', 'podSecurityContext.runAsNonRot=true'], 'runAsNonRot'],
    ['a misspelt toleration field', ['--set-json', 'apps.survey.tolerations=[{"key":"a","operater":"Exists"}]'], 'operater'],
    ['a misspelt affinity field', ['--set-json', 'apps.flow.affinity={"podAntiAfinity":{}}'], 'podAntiAfinity'],
    ['a misspelt NetworkPolicy peer', ['--set-json', 'apps.gateway.from=[{"namespaceSelectr":{}}]'], 'namespaceSelectr'],
    ['a misspelt env var field', ['--set-json', 'apps.file.extraEnv=[{"name":"A","vaule":"b"}]'], 'vaule'],
    // The messaging service's own rule for SMS_HTTP_PROVIDER.
    [
      'a misspelt SMS provider key',
      ['--set-json', 'smsProvider.http={"url":"https://sms.example.com/send","metod":"GET"}'],
      'smsProvider.http',
    ],
    [
      'an SMS provider method the service refuses',
      ['--set-json', 'smsProvider.http={"url":"https://sms.example.com/send","method":"PATCH"}'],
      'smsProvider.http',
    ],
  ])('%s', (_name, args, field) => {
    const res = template(helm, args);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain(field);
  });

  it('while the same values spelt right render', () => {
    expect(
      template(helm, [
        '--set',
        'apps.gateway.autoscaling.enabled=false',
        '--set',
        'apps.gateway.replicas=2',
        '--set',
        'config.logLevel=debug',
      ]).status,
    ).toBe(0);
    const spelt = template(helm, [
      '--set',
      'containerSecurityContext.readOnlyRootFilesystem=true',
      '--set-json',
      'apps.survey.tolerations=[{"key":"a","operator":"Exists"}]',
      '--set-json',
      'apps.flow.affinity={"podAntiAffinity":{}}',
      '--set-json',
      'apps.gateway.from=[{"namespaceSelector":{}}]',
      '--set-json',
      'apps.file.extraEnv=[{"name":"A","value":"b"}]',
      '--set',
      'smsProvider.kind=http',
      '--set-json',
      'smsProvider.http={"url":"https://sms.example.com/send","method":"GET"}',
    ]);
    expect(spelt.stderr).toBe('');
    expect(spelt.status).toBe(0);
  });
});

describe('PERSONAL_DATA_KEY: the apps that hash or seal personal data get it from the Secret; the chart never generates it', () => {
  const env = (objects: K8sObject[], app: string, name: string) =>
    podOf(objects, app).spec.containers[0].env?.find((e: { name: string }) => e.name === name);

  it('survey, messaging and webhooks, required; its previous keys optional; no other app', () => {
    for (const app of ['survey', 'messaging', 'webhooks']) {
      expect(env(defaults, app, 'PERSONAL_DATA_KEY').valueFrom.secretKeyRef).toEqual({
        name: 'feedback-credentials',
        key: 'personal-data-key',
      });
      expect(env(full, app, 'PERSONAL_DATA_KEY').valueFrom.secretKeyRef).toEqual({
        name: 'feedback-app-secrets',
        key: 'personal-data-key',
      });
      expect(env(full, app, 'PERSONAL_DATA_PREVIOUS_KEYS').valueFrom.secretKeyRef).toEqual({
        name: 'feedback-app-secrets',
        key: 'personal-data-previous-keys',
        optional: true,
      });
    }
    for (const app of ['gateway', 'flow', 'file', 'shortener']) expect(env(defaults, app, 'PERSONAL_DATA_KEY')).toBeUndefined();
  });

  it('not given: in the Secret but empty (the pods fail loudly at start-up); given: the 32 bytes and the previous keys', () => {
    expect(find(defaults, 'Secret', 'feedback-credentials').data['personal-data-key']).toBe('');
    const data = find(render(helm, valuesFile('inline-secrets-values.yaml')), 'Secret', 'acme-credentials').data;
    expect(Buffer.from(Buffer.from(data['personal-data-key'], 'base64').toString(), 'base64')).toHaveLength(32);
    expect(Buffer.from(data['personal-data-previous-keys'], 'base64').toString().split(',')).toHaveLength(1);
    const bad = template(helm, ['--set', 'secrets.personalDataKey=abc']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('personalDataKey');
  });
});

describe('webhooks: its secrets key, its delivery settings, and an egress policy of its own', () => {
  const egress = (objects: K8sObject[]) => find(objects, 'NetworkPolicy', 'feedback-webhooks-egress').spec;
  const env = (objects: K8sObject[], name: string) =>
    podOf(objects, 'webhooks').spec.containers[0].env.find((e: { name: string }) => e.name === name);
  const PRIVATE_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8'];

  it('WEBHOOKS_SECRET_KEY from the Secret, never optional (the service needs it); the chart never generates it', () => {
    expect(env(defaults, 'WEBHOOKS_SECRET_KEY').valueFrom.secretKeyRef).toEqual({
      name: 'feedback-credentials',
      key: 'webhooks-secret-key',
    });
    // Not given: present but empty, so the pod fails loudly at start-up rather than on a missing key.
    expect(find(defaults, 'Secret', 'feedback-credentials').data['webhooks-secret-key']).toBe('');
    expect(env(full, 'WEBHOOKS_SECRET_KEY').valueFrom.secretKeyRef).toEqual({ name: 'feedback-app-secrets', key: 'webhooks-secret-key' });
    expect(env(full, 'WEBHOOKS_SECRET_PREVIOUS_KEYS').valueFrom.secretKeyRef).toEqual({
      name: 'feedback-app-secrets',
      key: 'webhooks-secret-previous-keys',
      optional: true,
    });
    const inline = render(helm, valuesFile('inline-secrets-values.yaml'));
    const data = find(inline, 'Secret', 'acme-credentials').data;
    const key = Buffer.from(data['webhooks-secret-key'], 'base64').toString();
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(Buffer.from(data['webhooks-secret-previous-keys'], 'base64').toString().split(',')).toHaveLength(2);
    const bad = template(helm, ['--set', 'secrets.webhooksSecretKey=abc']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('webhooksSecretKey');
  });

  it('the gateway finds it through WEBHOOKS_GRPC_ADDR; its delivery settings reach it', () => {
    expect(find(defaults, 'ConfigMap', 'feedback-gateway-config').data.WEBHOOKS_GRPC_ADDR).toBe(
      'dns:///feedback-webhooks-grpc.feedback.svc.cluster.local:50057',
    );
    expect(env(defaults, 'WEBHOOKS_ALLOW_HTTP').value).toBe('false');
    expect(env(defaults, 'WEBHOOKS_ALLOWED_CIDRS').value).toBe('');
    expect(env(defaults, 'WEBHOOKS_RETRY_SCHEDULE')).toBeUndefined();
    expect(env(full, 'WEBHOOKS_ALLOW_HTTP').value).toBe('true');
    expect(env(full, 'WEBHOOKS_ALLOWED_CIDRS').value).toBe('10.20.0.0/16,192.168.50.0/24');
    expect(env(full, 'WEBHOOKS_RETRY_SCHEDULE').value).toBe('10s,1m,10m,1h');
    expect(env(full, 'WEBHOOKS_TIMEOUT_MS').value).toBe('5000');
    expect(env(defaults, 'WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT').value).toBe('20');
    expect(env(defaults, 'WEBHOOKS_TEST_SENDS_PER_MINUTE').value).toBe('10');
    expect(env(full, 'WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT').value).toBe('50');
    expect(env(full, 'WEBHOOKS_TEST_SENDS_PER_MINUTE').value).toBe('5');
  });

  it('defaults: DNS, its stores in the cluster, and 443 to the internet but not the private ranges; nothing else', () => {
    const spec = egress(defaults);
    expect(spec.podSelector).toEqual(find(defaults, 'Deployment', 'feedback-webhooks').spec.selector);
    expect(spec.policyTypes).toEqual(['Egress']);
    expect(spec.egress).toEqual([
      {
        ports: [
          { port: 53, protocol: 'UDP' },
          { port: 53, protocol: 'TCP' },
        ],
      },
      {
        ports: [
          { port: 27017, protocol: 'TCP' },
          { port: 9092, protocol: 'TCP' },
          { port: 9093, protocol: 'TCP' },
          { port: 9094, protocol: 'TCP' },
        ],
        to: [{ namespaceSelector: {} }],
      },
      {
        ports: [{ port: 443, protocol: 'TCP' }],
        to: [
          { ipBlock: { cidr: '0.0.0.0/0', except: PRIVATE_V4 } },
          { ipBlock: { cidr: '::/0', except: ['fc00::/7', 'fe80::/10', '::1/128'] } },
        ],
      },
    ]);
    // Only the webhooks pods are restricted: no other policy has an egress part.
    for (const policy of byKind(defaults, 'NetworkPolicy').filter((p) => p.metadata.name !== 'feedback-webhooks-egress'))
      expect(policy.spec.policyTypes, policy.metadata.name).toEqual(['Ingress']);
  });

  it('allowHttp opens 80 too; allowedCidrs open those private ranges on the same ports; extra rules are added', () => {
    const rules = egress(full).egress;
    const receivers = rules.find((r: K8sObject) => r.to?.some((t: K8sObject) => t.ipBlock?.cidr === '0.0.0.0/0'));
    expect(receivers.ports).toEqual([
      { port: 443, protocol: 'TCP' },
      { port: 80, protocol: 'TCP' },
    ]);
    expect(rules).toContainEqual({
      ports: receivers.ports,
      to: [{ ipBlock: { cidr: '10.20.0.0/16' } }, { ipBlock: { cidr: '192.168.50.0/24' } }],
    });
    expect(rules).toContainEqual({
      ports: [
        { port: 27017, protocol: 'TCP' },
        { port: 9093, protocol: 'TCP' },
      ],
      to: [
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kafka' } } },
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'mongodb' } } },
      ],
    });
    expect(rules.at(-1)).toEqual({ ports: [{ port: 3128, protocol: 'TCP' }], to: [{ ipBlock: { cidr: '10.0.0.53/32' } }] });
    const off = render(helm, ['--set', 'apps.webhooks.egress.enabled=false']);
    expect(byKind(off, 'NetworkPolicy').map((p) => p.metadata.name)).not.toContain('feedback-webhooks-egress');
    expect(byKind(render(helm, ['--set', 'networkPolicy.enabled=false']), 'NetworkPolicy')).toEqual([]);
  });
});

describe('docker-compose.yml runs the same image with real health checks', () => {
  const compose = yaml.parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, K8sObject> };
  const stores = ['mongo', 'kafka', 'minio', 'redis'];

  it.each(APPS)('%s: the named image, a health check of the image, healthy dependencies', (app) => {
    const svc = compose.services[app];
    expect(svc.image).toMatch(/^\$\{FEEDBACK_IMAGE:-feedback-service:[\w.-]+\}$/);
    expect(svc.build).toEqual({ context: '.', dockerfile: 'deploy/Dockerfile' });
    const test = svc.healthcheck.test as string[];
    expect(test.slice(0, 3)).toEqual(['CMD', 'node', '/app/healthcheck.mjs']);
    expect(test.slice(3)).toEqual(
      app === 'gateway' ? ['http', '8080', '/ready'] : ['grpc', String(GRPC_PORTS[app as keyof typeof GRPC_PORTS])],
    );
    const deps = Object.entries(svc.depends_on as Record<string, { condition: string }>);
    expect(deps.length).toBeGreaterThan(0);
    for (const [dep, { condition }] of deps) expect(condition, `${app} → ${dep}`).toBe('service_healthy');
  });

  it('the stores have health checks; the gateway waits for all five services and its stores, each service for its callees', () => {
    for (const store of stores) expect((compose.services[store].healthcheck.test as string[]).length, store).toBeGreaterThan(1);
    expect(Object.keys(compose.services.gateway.depends_on).sort()).toEqual([...SERVICES, 'kafka', 'mongo', 'redis'].sort());
    expect(Object.keys(compose.services.messaging.depends_on)).toEqual(expect.arrayContaining(['survey', 'shortener', 'file']));
    expect(Object.keys(compose.services.survey.depends_on)).toEqual(expect.arrayContaining(['flow']));
  });
});

/**
 * The image's build context as Docker cuts it with .dockerignore: patterns in order, the last match
 * wins, `!` takes back, a path is excluded with its excluded parent directory, `**` spans directories.
 */
function dockerignore(text: string) {
  const patterns = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negated = l.startsWith('!');
      const glob = l.replace(/^!/, '').replace(/^\//, '');
      const source = glob
        .split(/(\*\*\/|\*\*|\*|\?)/)
        .map((part) =>
          part === '**/'
            ? '(?:.*/)?'
            : part === '**'
              ? '.*'
              : part === '*'
                ? '[^/]*'
                : part === '?'
                  ? '[^/]'
                  : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
        )
        .join('');
      return { negated, re: new RegExp(`^${source}$`) };
    });
  return (path: string) => {
    const prefixes = path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const p of patterns) if (prefixes.some((prefix) => p.re.test(prefix))) excluded = !p.negated;
    return excluded;
  };
}

describe('.dockerignore: the build context holds what the image is built from, never secrets', () => {
  const excluded = dockerignore(read('.dockerignore'));

  it.each([
    '.local/stack.json',
    '.local/sms-provider-secrets-key',
    '.local/data/mongo/WiredTiger',
    '.local/bench/summary.md',
    '.git/config',
    'node_modules/fastify/package.json',
    'apps/gateway/node_modules/fastify/package.json',
    'apps/gateway/dist/main.js',
    'bench/src/main.ts',
    'bench/results/run.json',
    '.env',
    '.env.production',
    'apps/messaging/.env.local',
    'deploy/tls.key',
    'certs/ca.pem',
    'id_rsa',
    'home/.aws/credentials',
    'kubeconfig.yaml',
    'coverage/index.html',
  ])('keeps out %s', (path) => {
    expect(excluded(path)).toBe(true);
  });

  it('lets in every file the Dockerfile\u2019s build reads (sources, manifests, lockfile, patches, the layout scripts)', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    const needed = tracked.filter((f) =>
      /^(apps|packages)\/[^/]+\/(src\/|package\.json$|tsconfig)|^scripts\/|^patches\/|^deploy\/image\/|^infra\/ports\.json$|^proto\/|^(package\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.npmrc|tsconfig\.base\.json|bench\/package\.json)$/.test(
        f,
      ),
    );
    expect(needed.length).toBeGreaterThan(200);
    expect(needed.filter(excluded)).toEqual([]);
  });
});
