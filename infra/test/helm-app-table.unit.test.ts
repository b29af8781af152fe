import { readdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  APPS,
  byKind,
  CHART,
  envNames,
  envValue,
  find,
  read,
  render,
  renderChart,
  template,
  valuesFile,
  variablesRead,
  yaml,
  type K8sObject,
} from './chart-render.js';

/**
 * The chart is driven by one table (values.yaml `apps`): the templates iterate over it and name no app,
 * an app can be switched off or given other ports and everything that refers to it follows, and each
 * app is given its own settings only.
 */
let helm: string;
let defaults: K8sObject[];
let full: K8sObject[];
beforeAll(() => void ({ helm, defaults, full } = renderChart()), 600_000);

const deployment = (objects: K8sObject[], app: string) => find(objects, 'Deployment', `feedback-${app}`);
const container = (objects: K8sObject[], app: string) => deployment(objects, app).spec.template.spec.containers[0];
const component = (o: K8sObject): string | undefined => o.metadata.labels?.['app.kubernetes.io/component'];
const grpcCallers = (objects: K8sObject[], app: string): string[] => {
  const rule = find(objects, 'NetworkPolicy', `feedback-${app}`).spec.ingress.find((r: K8sObject) =>
    r.ports.some((p: { port: string }) => p.port === 'grpc'),
  );
  // The `helm test` Pod (component test) is admitted too: it is no caller of the table.
  return (rule?.from ?? [])
    .map((peer: K8sObject) => peer.podSelector.matchLabels['app.kubernetes.io/component'])
    .filter((c: string) => c !== 'test');
};

describe('the templates name no app', () => {
  it('no app of the table is written in templates/ (comments included)', () => {
    const table = (yaml.parse(read('deploy/helm/feedback/values.yaml')) as { apps: Record<string, unknown> }).apps;
    expect(Object.keys(table).sort()).toEqual([...APPS].sort());
    const dir = resolve(CHART, 'templates');
    const found: string[] = [];
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    for (const file of files.map((f) => relative(dir, resolve(f.parentPath, f.name)))) {
      const lines = read(`deploy/helm/feedback/templates/${file}`).split('\n');
      lines.forEach((line, i) => {
        // The one exception: the key names of the apps' Secret (webhooks-secret-key, ...), which operators' own
        // Secrets already hold.
        const text = line.replace(/\b[a-z]+-secret(-previous)?-keys?\b/g, '');
        for (const app of APPS) if (new RegExp(`\\b${app}\\b`, 'i').test(text)) found.push(`${file}:${i + 1}: ${app}`);
      });
    }
    expect(found).toEqual([]);
  });
});

describe('an app switched off', () => {
  it.each(APPS)('%s: none of its objects render, and no other app is given its address or admits it', (app) => {
    const objects = render(helm, ['--set', `apps.${app}.enabled=false`]);
    expect(objects.filter((o) => component(o) === app).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
    expect(objects.filter((o) => o.metadata.name.startsWith(`feedback-${app}`)).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
    const others = APPS.filter((a) => a !== app);
    expect(byKind(objects, 'Deployment')).toHaveLength(others.length);
    for (const other of others) {
      expect(envNames(objects, deployment(objects, other)).has(`${app.toUpperCase()}_GRPC_ADDR`), other).toBe(false);
      expect(JSON.stringify(deployment(objects, other)), other).not.toContain(`feedback-${app}-grpc`);
      expect(grpcCallers(objects, other), other).not.toContain(app);
    }
  });

  it('a service whose every caller is off admits no one to its gRPC port (no rule, never a rule without `from`)', () => {
    const objects = render(helm, ['--set', 'apps.gateway.enabled=false']);
    const withoutTests = render(helm, ['--set', 'apps.gateway.enabled=false', '--set', 'tests.enabled=false']);
    const grpcRules = (from: K8sObject[], app: string) =>
      find(from, 'NetworkPolicy', `feedback-${app}`).spec.ingress.filter((r: K8sObject) =>
        r.ports.some((p: { port: string }) => p.port === 'grpc'),
      );
    // The gateway was the only caller of messaging and webhooks: the `helm test` Pod alone remains, or no rule.
    for (const app of ['messaging', 'webhooks']) {
      const rules = grpcRules(objects, app);
      expect(rules).toHaveLength(1);
      expect(rules[0].from.map((peer: K8sObject) => peer.podSelector.matchLabels['app.kubernetes.io/component'])).toEqual(['test']);
      expect(grpcRules(withoutTests, app)).toEqual([]);
      const all = find(objects, 'NetworkPolicy', `feedback-${app}`).spec.ingress;
      expect(all.every((r: K8sObject) => r.from !== undefined || r.ports.every((p: { port: string }) => p.port !== 'grpc'))).toBe(true);
    }
    expect(grpcCallers(objects, 'survey')).toEqual(['messaging']);
    // No Ingress without the app whose ports they route to, and the SMS limits go with their only reader.
    const withIngress = render(helm, ['--set', 'apps.gateway.enabled=false', '--set', 'ingress.enabled=true']);
    expect(byKind(withIngress, 'Ingress')).toEqual([]);
    expect(byKind(objects, 'ConfigMap').map((c) => c.metadata.name)).not.toContain('feedback-sms-limits');
  });

  it('ci/apps-table-values.yaml (webhooks off, other ports): what ./stack test validates against Kubernetes\u2019 schemas', () => {
    const objects = render(helm, valuesFile('apps-table-values.yaml'));
    expect(objects.filter((o) => component(o) === 'webhooks')).toEqual([]);
    expect(envNames(objects, deployment(objects, 'gateway')).has('WEBHOOKS_GRPC_ADDR')).toBe(false);
    expect(container(objects, 'gateway').ports).toContainEqual({ name: 'api', containerPort: 9000, protocol: 'TCP' });
    expect(find(objects, 'Service', 'feedback-gateway').spec.ports[0]).toEqual({
      name: 'api',
      port: 8080,
      targetPort: 'api',
      protocol: 'TCP',
    });
    expect(find(objects, 'Ingress', 'feedback-api').spec.rules[0].http.paths[0].backend).toEqual({
      service: { name: 'feedback-gateway', port: { name: 'api' } },
    });
    expect(envValue(objects, deployment(objects, 'messaging'), 'SURVEY_GRPC_ADDR')).toBe(
      'dns:///feedback-survey-grpc.feedback.svc.cluster.local:6000',
    );
  });

  it('the defaults render every app (the switch is on)', () => {
    expect(
      byKind(defaults, 'Deployment')
        .map((d) => component(d))
        .sort(),
    ).toEqual([...APPS].sort());
  });
});

describe('other ports', () => {
  it('a gRPC port: Service, container port, probes, GRPC_PORT and every caller\u2019s address follow', () => {
    const objects = render(helm, ['--set', 'apps.survey.ports.grpc.port=6000']);
    const c = container(objects, 'survey');
    expect(c.ports).toContainEqual({ name: 'grpc', containerPort: 6000, protocol: 'TCP' });
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) expect(c[probe].grpc, probe).toEqual({ port: 6000 });
    expect(envValue(objects, deployment(objects, 'survey'), 'GRPC_PORT')).toBe('6000');
    expect(find(objects, 'Service', 'feedback-survey-grpc').spec.ports).toEqual([
      { name: 'grpc', port: 6000, targetPort: 'grpc', protocol: 'TCP', appProtocol: 'grpc' },
    ]);
    for (const caller of ['gateway', 'messaging'])
      expect(envValue(objects, deployment(objects, caller), 'SURVEY_GRPC_ADDR'), caller).toBe(
        'dns:///feedback-survey-grpc.feedback.svc.cluster.local:6000',
      );
    // A Service port of its own: the callers dial that one, the container keeps its port.
    const split = render(helm, ['--set', 'apps.flow.ports.grpc.servicePort=7000']);
    expect(find(split, 'Service', 'feedback-flow-grpc').spec.ports[0]).toMatchObject({ port: 7000, targetPort: 'grpc' });
    expect(container(split, 'flow').ports).toContainEqual({ name: 'grpc', containerPort: 50052, protocol: 'TCP' });
    expect(envValue(split, deployment(split, 'survey'), 'FLOW_GRPC_ADDR')).toBe(
      'dns:///feedback-flow-grpc.feedback.svc.cluster.local:7000',
    );
  });

  it('an HTTP port: container port and its variable follow; the Service and the probes use its name', () => {
    const objects = render(helm, ['--set', 'apps.gateway.ports.api.port=9000', '--set', 'apps.messaging.ports.dlr.servicePort=80']);
    const c = container(objects, 'gateway');
    expect(c.ports).toContainEqual({ name: 'api', containerPort: 9000, protocol: 'TCP' });
    expect(envValue(objects, deployment(objects, 'gateway'), 'API_PORT')).toBe('9000');
    expect(c.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'api' });
    expect(find(objects, 'Service', 'feedback-gateway').spec.ports[0]).toEqual({
      name: 'api',
      port: 80,
      targetPort: 'api',
      protocol: 'TCP',
    });
    // The delivery-report URL given to the SMS provider is the Service's port.
    expect(find(objects, 'Service', 'feedback-messaging').spec.ports[0]).toMatchObject({ name: 'dlr', port: 80 });
    expect(envValue(objects, deployment(objects, 'messaging'), 'DLR_PUBLIC_URL')).toBe('http://feedback-messaging.feedback.svc:80');
  });

  it('refuses a caller of an app that is not in the table, and probes on a port the app does not have', () => {
    const unknown = template(helm, ['--set-json', 'apps.flow.calls=["nosuch"]']);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('apps.flow.calls: there is no app nosuch');
    const probe = template(helm, ['--set', 'apps.flow.probes.port=nosuch']);
    expect(probe.status).not.toBe(0);
    expect(probe.stderr).toContain('apps.flow.probes.port');
  });
});

describe('each app gets its own settings only', () => {
  it.each(APPS)('%s: every variable it is given (env and its ConfigMap) is one its env.ts reads', (app) => {
    const reads = variablesRead(app);
    for (const objects of [defaults, full, render(helm, valuesFile('inline-secrets-values.yaml'))]) {
      const d = objects.find((o) => o.kind === 'Deployment' && component(o) === app);
      expect([...envNames(objects, d)].filter((n) => !reads.has(n))).toEqual([]);
    }
  });

  it('the gateway has no SMS provider, storage or webhooks settings; the shortener none of webhooks or storage; flow no Kafka', () => {
    const gateway = envNames(full, deployment(full, 'gateway'));
    for (const name of [
      'SMS_PROVIDER',
      'SMS_HTTP_PROVIDER',
      'DLR_PUBLIC_URL',
      'DLR_SECRET',
      'S3_BUCKET',
      'S3_ACCESS_KEY',
      'WEBHOOKS_TIMEOUT_MS',
    ])
      expect(gateway.has(name), name).toBe(false);
    const shortener = envNames(full, deployment(full, 'shortener'));
    for (const name of ['WEBHOOKS_ALLOW_HTTP', 'WEBHOOKS_SECRET_KEY', 'S3_ENDPOINT', 'SMS_PROVIDER', 'PERSONAL_DATA_KEY', 'ADMIN_TOKEN'])
      expect(shortener.has(name), name).toBe(false);
    const flow = envNames(full, deployment(full, 'flow'));
    for (const name of ['KAFKA_BROKERS', 'KAFKA_TLS', 'REDIS_URL', 'PUBLIC_BASE_URL']) expect(flow.has(name), name).toBe(false);
    // An app's own setting reaches that app alone.
    expect(envValue(full, deployment(full, 'messaging'), 'SMS_DISPATCH_CONCURRENCY')).toBe('16');
    for (const app of APPS.filter((a) => a !== 'messaging'))
      expect(envNames(full, deployment(full, app)).has('SMS_DISPATCH_CONCURRENCY'), app).toBe(false);
  });

  it('the cap on phones per sharing is SMS_MAX_PHONES_PER_SHARING only, for the gateway and messaging', () => {
    for (const objects of [defaults, full]) {
      for (const app of APPS) {
        const names = envNames(objects, deployment(objects, app));
        expect(names.has('MAX_PHONES_PER_SHARING'), app).toBe(false);
        expect(names.has('SMS_MAX_PHONES_PER_SHARING'), app).toBe(app === 'gateway' || app === 'messaging');
      }
    }
    expect(envValue(full, deployment(full, 'messaging'), 'SMS_MAX_PHONES_PER_SHARING')).toBe('5000');
  });

  it('a changed setting rolls only the apps that read it', () => {
    const checksum = (objects: K8sObject[], app: string) => deployment(objects, app).spec.template.metadata.annotations['checksum/config'];
    const changed = render(helm, ['--set', 'config.defaultLinkTtlDays=14']);
    expect(checksum(changed, 'survey')).not.toBe(checksum(defaults, 'survey'));
    for (const app of APPS.filter((a) => a !== 'survey')) expect(checksum(changed, app), app).toBe(checksum(defaults, app));
  });
});

describe('secrets stay in Secrets', () => {
  it('secrets.existingSecret: every app secret comes from it under the same keys, and the chart keeps only the stores\u2019 URLs', () => {
    const objects = render(helm, ['--set', 'secrets.existingSecret=my-app-secrets']);
    const refs = APPS.flatMap((app) =>
      (container(objects, app).env as K8sObject[])
        .filter((e) => e.valueFrom?.secretKeyRef)
        .map((e) => [app, e.name, e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.key] as const),
    );
    const own = refs.filter(([, name]) => !['MONGO_URL', 'REDIS_URL', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'].includes(name));
    expect(own.length).toBeGreaterThan(8);
    for (const [app, name, secret] of own) expect(secret, `${app} ${name}`).toBe('my-app-secrets');
    expect(own).toContainEqual(['gateway', 'ADMIN_TOKEN', 'my-app-secrets', 'admin-token']);
    expect(own).toContainEqual(['survey', 'PERSONAL_DATA_KEY', 'my-app-secrets', 'personal-data-key']);
    expect(own).toContainEqual(['webhooks', 'WEBHOOKS_SECRET_KEY', 'my-app-secrets', 'webhooks-secret-key']);
    expect(own).toContainEqual(['messaging', 'DLR_SECRET', 'my-app-secrets', 'dlr-secret']);
    expect(Object.keys(find(objects, 'Secret', 'feedback-credentials').data).sort()).toEqual(
      ['mongo-url', 'redis-url', 's3-access-key', 's3-secret-key'].sort(),
    );
    for (const cm of byKind(objects, 'ConfigMap')) expect(JSON.stringify(cm.data ?? {})).not.toMatch(/mongodb:\/\/|redis:\/\//);
  });
});
