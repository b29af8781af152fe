import { beforeAll, describe, expect, it } from 'vitest';
import { parseLimitsFile } from '@feedback/kit-limits';
import { APPS, envNames, envValue, find, helmBin, read, render, valuesFile, variablesRead, yaml, type K8sObject } from './chart-render.js';

/**
 * What the apps need to find each other and their stores outside the local stack: docker-compose.yml
 * and the Helm chart (deploy/helm/feedback), rendered.
 */
let helm: string;
let objects: K8sObject[];
beforeAll(() => {
  helm = helmBin();
  objects = render(helm);
}, 600_000);

const deployment = (app: string, from = objects) => find(from, 'Deployment', `feedback-${app}`);
const container = (app: string, from = objects) => deployment(app, from).spec.template.spec.containers[0];

describe('deployments include the messaging service', () => {
  it('docker-compose runs messaging and points the gateway at it', () => {
    const compose = yaml.parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, K8sObject> };
    const messaging = compose.services.messaging;
    expect(messaging.command).toEqual(['node', 'apps/messaging/dist/main.js']);
    expect(messaging.environment).toMatchObject({
      MONGO_DB: 'messaging',
      GRPC_PORT: '50056',
      SURVEY_GRPC_ADDR: 'survey:50053',
      SHORTENER_GRPC_ADDR: 'shortener:50055',
      FILE_GRPC_ADDR: 'file:50054',
    });
    const gateway = compose.services.gateway;
    expect(gateway.environment).toMatchObject({ MESSAGING_GRPC_ADDR: 'messaging:50056', SURVEY_GRPC_ADDR: 'survey:50053' });
    expect(Object.keys(gateway.depends_on)).toContain('messaging');
  });

  it('kubernetes: a messaging Deployment and Service, found by the gateway and its other callers through the shared config', () => {
    expect(container('messaging').command).toEqual(['node', '/app/apps/messaging/dist/main.js']);
    expect(container('messaging').env).toEqual(
      expect.arrayContaining([
        { name: 'MONGO_DB', value: 'messaging' },
        { name: 'GRPC_PORT', value: '50056' },
      ]),
    );
    // Headless: the callers resolve every ready pod and spread their calls (kit-grpc round_robin).
    const service = find(objects, 'Service', 'feedback-messaging-grpc');
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.ports).toContainEqual({ name: 'grpc', port: 50056, targetPort: 'grpc', protocol: 'TCP', appProtocol: 'grpc' });
    expect(service.spec.selector).toEqual(deployment('messaging').spec.selector.matchLabels);
    const gateway = deployment('gateway');
    const addr = (app: string, port: number) => `dns:///feedback-${app}-grpc.feedback.svc.cluster.local:${port}`;
    expect(envValue(objects, gateway, 'MESSAGING_GRPC_ADDR')).toBe(addr('messaging', 50056));
    expect(envValue(objects, gateway, 'SURVEY_GRPC_ADDR')).toBe(addr('survey', 50053));
    expect(envValue(objects, deployment('messaging'), 'SHORTENER_GRPC_ADDR')).toBe(addr('shortener', 50055));
    expect(envValue(objects, deployment('messaging'), 'FILE_GRPC_ADDR')).toBe(addr('file', 50054));
    expect(envValue(objects, deployment('survey'), 'FLOW_GRPC_ADDR')).toBe(addr('flow', 50052));
    expect(envValue(objects, deployment('messaging'), 'KAFKA_BROKERS')).toBe('kafka.feedback-data:9092');
  });

  it('kubernetes: the gateway reads the SMS limits from a ConfigMap mounted as a directory (live reload), holding a valid tier file', () => {
    const pod = deployment('gateway').spec.template.spec;
    const file = envValue(objects, deployment('gateway'), 'SMS_LIMITS_FILE') as string;
    const mount = pod.containers[0].volumeMounts.find((m: { name: string }) => m.name === 'sms-limits');
    // A subPath mount never sees ConfigMap updates: the directory must be mounted.
    expect(mount.subPath).toBeUndefined();
    expect(file).toBe(`${mount.mountPath}/sms-limits.yaml`);
    expect(pod.volumes).toContainEqual({ name: 'sms-limits', configMap: { name: 'feedback-sms-limits' } });
    const limits = parseLimitsFile(find(objects, 'ConfigMap', 'feedback-sms-limits').data['sms-limits.yaml'], 'sms-limits.yaml');
    expect(limits.enabled).toBe(true);
    expect(limits.tiers.map((t) => [t.limit, t.windowSeconds])).toEqual([
      [20, 5],
      [40, 25],
      [80, 125],
      [160, 625],
    ]);
  });

  it('kubernetes: on-premise tiers reach the ConfigMap without rolling the gateway (no checksum of them on its pods)', () => {
    const changed = render(helm, ['--set-json', 'smsLimits={"enabled":true,"tiers":[{"limit":5,"window_seconds":60}]}']);
    const limits = parseLimitsFile(find(changed, 'ConfigMap', 'feedback-sms-limits').data['sms-limits.yaml'], 'sms-limits.yaml');
    expect(limits.tiers.map((t) => [t.limit, t.windowSeconds])).toEqual([[5, 60]]);
    expect(deployment('gateway', changed).spec.template).toEqual(deployment('gateway').spec.template);
    const off = render(helm, ['--set', 'smsLimits.enabled=false', '--set-json', 'smsLimits.tiers=[]']);
    expect(parseLimitsFile(find(off, 'ConfigMap', 'feedback-sms-limits').data['sms-limits.yaml'], 'sms-limits.yaml').enabled).toBe(false);
    // Any other setting rolls the pods: their envFrom is read at start only.
    const other = render(helm, ['--set', 'config.logLevel=debug']);
    expect(deployment('gateway', other).spec.template.metadata.annotations['checksum/config']).not.toBe(
      deployment('gateway').spec.template.metadata.annotations['checksum/config'],
    );
  });
});

describe('PERSONAL_DATA_KEY in docker-compose', () => {
  it('survey, messaging and webhooks get it, required (`:?`), with their previous keys', () => {
    const compose = yaml.parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, K8sObject> };
    for (const app of ['survey', 'messaging', 'webhooks']) {
      expect(compose.services[app]!.environment.PERSONAL_DATA_KEY).toMatch(/^\$\{PERSONAL_DATA_KEY:\?/);
      expect(compose.services[app]!.environment.PERSONAL_DATA_PREVIOUS_KEYS).toBe('${PERSONAL_DATA_PREVIOUS_KEYS:-}');
    }
  });
});

describe('deployments include the webhooks service', () => {
  it('docker-compose runs webhooks with a required secrets key and https only, and points the gateway at it', () => {
    const compose = yaml.parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, K8sObject> };
    const webhooks = compose.services.webhooks;
    expect(webhooks.command).toEqual(['node', 'apps/webhooks/dist/main.js']);
    expect(webhooks.environment).toMatchObject({
      MONGO_DB: 'webhooks',
      GRPC_PORT: '50057',
      KAFKA_BROKERS: 'kafka:19092',
      WEBHOOKS_ALLOW_HTTP: '${WEBHOOKS_ALLOW_HTTP:-false}',
      WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT: '${WEBHOOKS_MAX_ENDPOINTS_PER_ACCOUNT:-20}',
      WEBHOOKS_TEST_SENDS_PER_MINUTE: '${WEBHOOKS_TEST_SENDS_PER_MINUTE:-10}',
    });
    // Required: compose refuses to start without it (`:?`), as with DLR_SECRET and ADMIN_TOKEN.
    expect(webhooks.environment.WEBHOOKS_SECRET_KEY).toMatch(/^\$\{WEBHOOKS_SECRET_KEY:\?/);
    expect(Object.keys(webhooks.depends_on).sort()).toEqual(['kafka', 'mongo']);
    expect(compose.services.gateway.environment).toMatchObject({ WEBHOOKS_GRPC_ADDR: 'webhooks:50057' });
    expect(Object.keys(compose.services.gateway.depends_on)).toContain('webhooks');
  });

  it('kubernetes: a webhooks Deployment on MongoDB and Kafka, behind a headless Service the gateway is pointed at', () => {
    expect(container('webhooks').command).toEqual(['node', '/app/apps/webhooks/dist/main.js']);
    expect(container('webhooks').env).toEqual(
      expect.arrayContaining([
        { name: 'MONGO_DB', value: 'webhooks' },
        { name: 'GRPC_PORT', value: '50057' },
      ]),
    );
    expect(envValue(objects, deployment('webhooks'), 'KAFKA_BROKERS')).toBe('kafka.feedback-data:9092');
    const service = find(objects, 'Service', 'feedback-webhooks-grpc');
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.ports).toContainEqual({ name: 'grpc', port: 50057, targetPort: 'grpc', protocol: 'TCP', appProtocol: 'grpc' });
    expect(envValue(objects, deployment('gateway'), 'WEBHOOKS_GRPC_ADDR')).toBe(
      'dns:///feedback-webhooks-grpc.feedback.svc.cluster.local:50057',
    );
  });
});

/** Every variable the apps were given by the kustomize base this chart replaced (its config.env, Deployments and Secrets). */
const FROM_KUSTOMIZE = {
  shared: [
    'LOG_LEVEL',
    'LOG_REQUESTS',
    'MONGO_URL',
    'KAFKA_BROKERS',
    'REDIS_URL',
    'S3_ENDPOINT',
    'PUBLIC_BASE_URL',
    'PUBLIC_SHORTENER_URL',
    'FLOW_GRPC_ADDR',
    'SHORTENER_GRPC_ADDR',
    'FILE_GRPC_ADDR',
    'SURVEY_GRPC_ADDR',
    'MESSAGING_GRPC_ADDR',
    'DEFAULT_PHONE_REGION',
    'DEFAULT_LINK_TTL_DAYS',
    'CUSTOMER_SCHEMA_ATTRIBUTES',
    'DISPLAY_TIME_ZONE',
    'FILE_RETENTION_SECONDS',
    'MAX_UPLOAD_BYTES',
    'REDIRECT_STATUS',
    'TRUST_PROXY',
    'SMS_PROVIDER',
    'DLR_PUBLIC_URL',
    'SMS_MAX_PHONES_PER_SHARING',
    'MONGO_DB',
    'GRPC_PORT',
  ],
  gateway: ['ADMIN_TOKEN', 'SMS_LIMITS_FILE'],
  file: ['S3_ACCESS_KEY', 'S3_SECRET_KEY'],
  messaging: ['DLR_PORT', 'DLR_SECRET', 'SMS_PROVIDER_SECRETS_KEY', 'SMS_HTTP_PROVIDER'],
  // Not from the kustomize base (the service came after it): what the chart must give it all the same.
  webhooks: ['WEBHOOKS_SECRET_KEY', 'WEBHOOKS_ALLOW_HTTP', 'WEBHOOKS_ALLOWED_CIDRS', 'KAFKA_BROKERS'],
} as const;

describe('the chart gives every app the variables it reads', () => {
  let http: K8sObject[];
  beforeAll(() => {
    // SMS_HTTP_PROVIDER is set only when the provider is http.
    http = render(helm, valuesFile('inline-secrets-values.yaml'));
  });

  it.each(APPS)('%s: everything the kustomize base gave it and its env.ts reads', (app) => {
    const reads = variablesRead(app);
    const expected = [...FROM_KUSTOMIZE.shared, ...((FROM_KUSTOMIZE as Record<string, readonly string[]>)[app] ?? [])].filter((v) =>
      reads.has(v),
    );
    expect(expected.length).toBeGreaterThan(3);
    const given = envNames(http, find(http, 'Deployment', `acme-${app}`));
    expect(expected.filter((v) => !given.has(v))).toEqual([]);
  });

  it.each(APPS)('%s: no variable of its own that its env.ts does not read (a misspelt name fails here)', (app) => {
    const reads = variablesRead(app);
    for (const [from, release] of [
      [objects, 'feedback'],
      [http, 'acme'],
    ] as const) {
      const own = (find(from, 'Deployment', `${release}-${app}`).spec.template.spec.containers[0].env ?? []) as { name: string }[];
      expect(own.map((e) => e.name).filter((n) => !reads.has(n))).toEqual([]);
    }
  });

  it.each(APPS)('%s: every key of its ConfigMap is read by it (each app gets its own settings only)', (app) => {
    const reads = variablesRead(app);
    const withExtra = render(helm, valuesFile('full-values.yaml'));
    for (const config of [find(objects, 'ConfigMap', `feedback-${app}-config`), find(withExtra, 'ConfigMap', `feedback-${app}-config`)]) {
      expect(Object.keys(config.data).filter((k) => !reads.has(k))).toEqual([]);
    }
  });

  it('the values that changed lately reach their apps: CUSTOMER_SCHEMA_ATTRIBUTES (survey), SMS_PROVIDER_SECRETS_KEY (messaging)', () => {
    expect(envValue(objects, deployment('survey'), 'CUSTOMER_SCHEMA_ATTRIBUTES')).toBe('TCKN');
    const full = render(helm, valuesFile('full-values.yaml'));
    expect(envValue(full, deployment('survey', full), 'CUSTOMER_SCHEMA_ATTRIBUTES')).toBe('TCKN,CustomerNo');
    const key = container('messaging').env.find((e: { name: string }) => e.name === 'SMS_PROVIDER_SECRETS_KEY');
    expect(key.valueFrom.secretKeyRef).toEqual({ name: 'feedback-credentials', key: 'sms-provider-secrets-key', optional: true });
    const sealed = find(http, 'Secret', 'acme-credentials').data;
    expect(Buffer.from(sealed['sms-provider-secrets-key'], 'base64').toString()).toBe('MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=');
    expect(Buffer.from(Buffer.from(sealed['sms-provider-secrets-key'], 'base64').toString(), 'base64')).toHaveLength(32);
  });
});

describe('retention defaults (docs/api.md "Retention")', () => {
  const VARS = { MESSAGES_RETENTION_DAYS: '365', RESPONSES_RETENTION_DAYS: '730', WEBHOOK_DELIVERIES_RETENTION_DAYS: '30' };
  const APPLIED_BY = {
    MESSAGES_RETENTION_DAYS: 'messaging',
    RESPONSES_RETENTION_DAYS: 'survey',
    WEBHOOK_DELIVERIES_RETENTION_DAYS: 'webhooks',
  };

  it('the chart gives each default to the gateway (which shows it) and to the service that applies it, the same value', () => {
    for (const [name, days] of Object.entries(VARS)) {
      for (const app of ['gateway', APPLIED_BY[name as keyof typeof APPLIED_BY]!]) {
        expect(variablesRead(app).has(name), `${app} reads ${name}`).toBe(true);
        expect(envValue(objects, deployment(app), name), `${app} ${name}`).toBe(days);
      }
    }
    expect(variablesRead('survey').has('EXPIRED_LINK_GRACE_DAYS')).toBe(true);
    expect(envValue(objects, deployment('survey'), 'EXPIRED_LINK_GRACE_DAYS')).toBe('30');
  });

  it('docker-compose gives every app the same defaults, overridable from the shell', () => {
    const compose = yaml.parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, K8sObject> };
    for (const app of ['gateway', 'messaging', 'survey', 'webhooks']) {
      for (const [name, days] of Object.entries(VARS)) expect(compose.services[app]!.environment[name]).toBe(`\${${name}:-${days}}`);
    }
  });
});
