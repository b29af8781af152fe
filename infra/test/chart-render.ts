import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as yaml from 'yaml';
import { kafkaSecurityEnv } from '@feedback/kit-kafka';
import { mongoSecurityEnv, redisSecurityEnv } from '@feedback/kit-stores';
import { metricsEnv } from '@feedback/kit-metrics';

/**
 * The Helm chart (deploy/helm/feedback) rendered by the helm that infra/k8s-tools.sh builds into the
 * cache, for the tests that assert on the Kubernetes objects it makes.
 */
export const ROOT = resolve(import.meta.dirname, '../..');
export const CHART = resolve(ROOT, 'deploy/helm/feedback');
export { yaml };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are probed field by field
export type K8sObject = any;

/** The helm binary; provisions it (a build of about a minute and a half) on a fresh cache. */
export function helmBin(): string {
  return execFileSync('bash', [resolve(ROOT, 'infra/k8s-tools.sh'), 'bin', 'helm'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

export const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

/** `helm template` of the chart as release "feedback" in namespace "feedback": its status and output. */
export function template(helm: string, args: string[] = []) {
  const res = spawnSync(helm, ['template', 'feedback', CHART, '--namespace', 'feedback', ...args], { encoding: 'utf8' });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** The rendered objects; throws with helm's message when the chart refuses the values. */
export function render(helm: string, args: string[] = []): K8sObject[] {
  const res = template(helm, args);
  if (res.status !== 0) throw new Error(`helm template ${args.join(' ')} failed: ${res.stderr}`);
  return yaml
    .parseAllDocuments(res.stdout)
    .map((d) => d.toJSON() as K8sObject)
    .filter((o) => o !== null);
}

export const valuesFile = (name: string) => ['--values', resolve(CHART, 'ci', name)];

/**
 * `helm template` has no cluster: the CRD-backed parts (PodMonitor, PrometheusRule), which render only
 * where the cluster serves their API, need these to be rendered (infra/k8s-tools.sh passes the same).
 */
export const MONITORING_APIS = [
  '--api-versions',
  'monitoring.coreos.com/v1/PodMonitor',
  '--api-versions',
  'monitoring.coreos.com/v1/PrometheusRule',
];

/** The helm binary and the chart's objects with its defaults and with ci/full-values.yaml (monitoring APIs served); for a beforeAll. */
export function renderChart(): { helm: string; defaults: K8sObject[]; full: K8sObject[] } {
  const helm = helmBin();
  return { helm, defaults: render(helm), full: render(helm, [...valuesFile('full-values.yaml'), ...MONITORING_APIS]) };
}

/**
 * The chart's NOTES.txt as `helm install` would print it. Helm renders NOTES only on install, which needs a
 * cluster: a copy of the chart renders the real NOTES.txt through `tpl` into a ConfigMap instead.
 */
export function renderNotes(helm: string, args: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'chart-notes-'));
  try {
    const chart = join(dir, 'feedback');
    cpSync(CHART, chart, { recursive: true });
    cpSync(join(chart, 'templates/NOTES.txt'), join(chart, 'notes.tpl'));
    writeFileSync(
      join(chart, 'templates/zz-notes.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: notes }\ndata:\n  notes: {{ tpl (.Files.Get "notes.tpl") . | toJson }}\n',
    );
    const res = spawnSync(
      helm,
      ['template', 'feedback', chart, '--namespace', 'feedback', '--show-only', 'templates/zz-notes.yaml', ...args],
      {
        encoding: 'utf8',
      },
    );
    if (res.status !== 0) throw new Error(`helm template (NOTES) ${args.join(' ')} failed: ${res.stderr}`);
    return (yaml.parse(res.stdout) as K8sObject).data.notes as string;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const byKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);

export function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}

export const APPS = ['gateway', 'survey', 'messaging', 'file', 'flow', 'shortener', 'webhooks'] as const;
export type App = (typeof APPS)[number];

/** The names of the variables an app's container gets: its env, and every key of the ConfigMaps it takes whole. */
export function envNames(objects: K8sObject[], deployment: K8sObject): Set<string> {
  const container = deployment.spec.template.spec.containers[0];
  const names = new Set<string>((container.env ?? []).map((e: { name: string }) => e.name));
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) for (const key of Object.keys(find(objects, 'ConfigMap', from.configMapRef.name).data)) names.add(key);
  }
  return names;
}

/** The value of a variable of an app's container: a literal, a ConfigMap's (envFrom), or where a Secret holds it. */
export function envValue(objects: K8sObject[], deployment: K8sObject, name: string): string | { secret: string; key: string } | undefined {
  const container = deployment.spec.template.spec.containers[0];
  const own = (container.env ?? []).find((e: { name: string }) => e.name === name);
  if (own?.valueFrom?.secretKeyRef) return { secret: own.valueFrom.secretKeyRef.name, key: own.valueFrom.secretKeyRef.key };
  if (own) return own.value;
  for (const from of container.envFrom ?? []) {
    const data = from.configMapRef ? find(objects, 'ConfigMap', from.configMapRef.name).data : {};
    if (name in data) return data[name];
  }
  return undefined;
}

/** Shared env fragments (kit-kafka, kit-stores) an app's env.ts spreads, by the name it spreads. */
const ENV_FRAGMENTS: Record<string, string[]> = {
  kafkaSecurityEnv: Object.keys(kafkaSecurityEnv),
  mongoSecurityEnv: Object.keys(mongoSecurityEnv),
  redisSecurityEnv: Object.keys(redisSecurityEnv),
  metricsEnv: Object.keys(metricsEnv(0)),
  'env.personalDataKeys': ['PERSONAL_DATA_KEY', 'PERSONAL_DATA_PREVIOUS_KEYS'],
};

/** The variables apps/<app>/src/env.ts reads (its config keys; the gateway's peer addresses come from peers.ts). */
export function variablesRead(app: App): Set<string> {
  const source = read(`apps/${app}/src/env.ts`);
  const names = new Set([...source.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!));
  // Shared fragments spread into the shape: their variables count as read.
  for (const [fragment, keys] of Object.entries(ENV_FRAGMENTS)) {
    if (new RegExp(`\\.\\.\\.${fragment}\\b`).test(source)) for (const key of keys) names.add(key);
  }
  if (app === 'gateway') {
    const peers = read('apps/gateway/src/peers.ts').match(/PEERS = \{([^}]*)\}/)![1]!;
    for (const [, peer] of peers.matchAll(/^\s+(\w+):/gm)) names.add(`${peer!.toUpperCase()}_GRPC_ADDR`);
  }
  return names;
}
