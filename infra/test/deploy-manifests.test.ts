import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as Yaml from 'yaml';
import { parseLimitsFile } from '../../packages/kit-limits/src/limits-config.js';

// The yaml package is kit-limits' dependency (pnpm does not hoist it to the root).
const { parse, parseAllDocuments } = createRequire(resolve(import.meta.dirname, '../../packages/kit-limits/package.json'))(
  'yaml',
) as typeof Yaml;
const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are probed field by field
type Json = any;
const docs = (path: string) => parseAllDocuments(read(path)).map((d) => d.toJSON() as Json);
const envFile = (path: string) =>
  Object.fromEntries(
    read(path)
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

/** What apps/messaging/src/env.ts and the gateway's peers need to find each other, outside the local stack. */
describe('deployments include the messaging service', () => {
  it('docker-compose runs messaging and points the gateway at it', () => {
    const compose = parse(read('docker-compose.yml')) as { services: Record<string, Json> };
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
    expect(gateway.depends_on).toContain('messaging');
  });

  it('kubernetes: a messaging Deployment and Service, listed in the kustomization, found by the gateway through config.env', () => {
    const kustomization = parse(read('deploy/k8s/kustomization.yaml')) as {
      resources: string[];
      configMapGenerator: { name: string; files?: string[]; options?: Record<string, unknown> }[];
    };
    expect(kustomization.resources).toContain('messaging.yaml');
    const [deployment, service] = docs('deploy/k8s/messaging.yaml');
    expect(deployment).toMatchObject({ kind: 'Deployment', metadata: { name: 'messaging' } });
    const container = deployment!.spec.template.spec.containers[0];
    expect(container.command).toEqual(['node', 'apps/messaging/dist/main.js']);
    expect(container.env).toEqual(
      expect.arrayContaining([
        { name: 'MONGO_DB', value: 'messaging' },
        { name: 'GRPC_PORT', value: '50056' },
      ]),
    );
    expect(service).toMatchObject({ kind: 'Service', metadata: { name: 'messaging' } });
    expect(service!.spec.ports).toEqual(expect.arrayContaining([expect.objectContaining({ port: 50056 })]));
    const config = envFile('deploy/k8s/config.env');
    expect(config.MESSAGING_GRPC_ADDR).toBe('messaging:50056');
    for (const v of ['SURVEY_GRPC_ADDR', 'SHORTENER_GRPC_ADDR', 'FILE_GRPC_ADDR', 'KAFKA_BROKERS']) expect(config[v], v).toBeTruthy();
  });

  it('kubernetes: the gateway reads the SMS limits from a ConfigMap mounted as a directory (live reload), holding a valid tier file', () => {
    const kustomization = parse(read('deploy/k8s/kustomization.yaml')) as {
      configMapGenerator: { name: string; files?: string[]; options?: Record<string, unknown> }[];
    };
    const generator = kustomization.configMapGenerator.find((g) => g.name === 'sms-limits');
    expect(generator?.files).toEqual(['sms-limits.yaml']);
    expect(generator?.options).toMatchObject({ disableNameSuffixHash: true });
    const [deployment] = docs('deploy/k8s/gateway.yaml');
    const pod = deployment!.spec.template.spec;
    const container = pod.containers[0];
    const file = container.env.find((e: { name: string }) => e.name === 'SMS_LIMITS_FILE')?.value as string;
    const mount = container.volumeMounts.find((m: { name: string }) => m.name === 'sms-limits');
    // A subPath mount never sees ConfigMap updates: the directory must be mounted.
    expect(mount.subPath).toBeUndefined();
    expect(file).toBe(`${mount.mountPath}/sms-limits.yaml`);
    expect(pod.volumes).toContainEqual({ name: 'sms-limits', configMap: { name: 'sms-limits' } });
    const limits = parseLimitsFile(read('deploy/k8s/sms-limits.yaml'), 'sms-limits.yaml');
    expect(limits.tiers.map((t) => [t.limit, t.windowSeconds])).toEqual([
      [20, 5],
      [40, 25],
      [80, 125],
      [160, 625],
    ]);
  });
});
